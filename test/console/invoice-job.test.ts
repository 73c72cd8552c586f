/**
 * The monthly job of the event invoices: a worker keeps its schedule (00:00 UTC on the 1st, one catch-up run after a
 * gap), a job bills the month it names or, sent by the schedule without one, the month just ended, and a job run
 * twice (pg-boss runs a job at least once) adds nothing.
 */
import t from 'tap';
import { EVENT_INVOICES_QUEUE } from '../../src/jobs/event-invoices.js';
import { buildTestApp, until } from '../helpers/app.js';
import { createCast, createEvent } from '../helpers/events.js';
import { seedUser } from '../helpers/users.js';
import { inMonth, LAST_MONTH, makeFee, MONTH_BEFORE, sale, sellsIn } from './invoice-sales.js';

const { app } = await buildTestApp(t, { ROLE: 'all' });
const cast = await createCast(app);
const buyer = (await seedUser(app)).id;
const event = await createEvent(app, cast, 'Night Market', 'published');
await makeFee(app, cast.admin.token, { currency: 'EUR', country: 'FR', 'service-fee': 2.5, 'maximum-fee': 100 });
await sellsIn(app, event.id, 'EUR', 'FR');
await sale(app, event.id, buyer, 400, inMonth(LAST_MONTH));
await sale(app, event.id, buyer, 200, inMonth(MONTH_BEFORE));

const invoices = () =>
  app.sql<{ month: string; amount: string; pdf: string | null }[]>`
    select month, amount, invoice_pdf_url as pdf from event_invoices order by month`;

t.test('the worker keeps the monthly schedule', async (t) => {
  const rows = await app.sql`select cron, timezone, options from pgboss.schedule where name = ${EVENT_INVOICES_QUEUE}`;
  t.equal(rows.length, 1);
  t.equal(rows[0]!.cron, '0 0 1 * *', 'at 00:00 on the 1st');
  t.equal(rows[0]!.timezone, 'UTC');
  t.equal(rows[0]!.options.missed, 'once', 'a run missed while no worker ran is made up once');
});

t.test('a job bills the month it names, its PDF included', async (t) => {
  await app.boss.send(EVENT_INVOICES_QUEUE, { month: MONTH_BEFORE });
  const rows = await until(
    'the invoice of the month named',
    async () => {
      const found = await invoices();
      return found.length === 1 && found[0]!.pdf ? found : undefined;
    },
    30_000,
  );
  t.same(
    rows.map((r) => [r.month, Number(r.amount)]),
    [[MONTH_BEFORE, 5]],
  );
});

t.test('a job sent without a month bills the month just ended, and a repeat adds nothing', async (t) => {
  await app.boss.send(EVENT_INVOICES_QUEUE, {});
  await app.boss.send(EVENT_INVOICES_QUEUE, {});
  const rows = await until(
    'the invoice of the month just ended',
    async () => {
      const found = await invoices();
      return found.length === 2 && found.every((r) => r.pdf) ? found : undefined;
    },
    30_000,
  );
  t.same(
    rows.map((r) => [r.month, Number(r.amount)]),
    [
      [MONTH_BEFORE, 5],
      [LAST_MONTH, 10],
    ],
  );
  await until(
    'the jobs to end',
    async () => {
      const [open] = await app.sql`select count(*)::int as n from pgboss.job
      where name = ${EVENT_INVOICES_QUEUE} and state not in ('completed', 'failed')`;
      return open!.n === 0 ? true : undefined;
    },
    30_000,
  );
  const [failed] = await app.sql`select count(*)::int as n from pgboss.job
    where name = ${EVENT_INVOICES_QUEUE} and state = 'failed'`;
  t.equal(failed!.n, 0, 'no run failed');
  t.equal((await invoices()).length, 2, 'still one invoice per event and month');
});
