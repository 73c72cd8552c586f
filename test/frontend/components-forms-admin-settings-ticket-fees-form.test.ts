/**
 * open-event-frontend app/routes/admin/settings/ticket-fees.js (`findAll('ticket-fee')`), its controller's
 * updateSettings (app/controllers/admin/settings/ticket-fees.js: `settings.save()`, every record of the page) and
 * app/components/forms/admin/settings/ticket-fees-form.js: the "Global Settings" row is a new record
 * `{country: 'global'}` with no currency (ember-data's string transform sends null), "Add New" a record with both
 * fees 0.0, and the trash icon `destroyRecord()`. app/models/ticket-fee.js: country, currency (string), service-fee,
 * maximum-fee (number: the inputs' text goes out as a number, an emptied input as null).
 */
import t from 'tap';
import { ticketFeeFor } from '../../src/resources/ticket-fees/fee.js';
import { buildTestApp } from '../helpers/app.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';
import { seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const base = await listening(app);
const admin = frontEnd(base, (await seedUser(app, { admin: true })).token);

/** A ticket-fee record as ember-data serializes it (app/models/ticket-fee.js, in model order). */
const record = (
  fee: { country?: string | null; currency?: string | null; service?: number | null; maximum?: number | null },
  id?: string,
) => ({
  data: {
    ...(id ? { id } : {}),
    type: 'ticket-fee',
    attributes: {
      country: fee.country ?? null,
      currency: fee.currency ?? null,
      'service-fee': fee.service ?? null,
      'maximum-fee': fee.maximum ?? null,
    },
  },
});
const findAll = () => admin.adapter('GET', '/v1/ticket-fees');

t.test('a first visit: no fees; saving the global row and a new country row', async (t) => {
  const empty = await findAll();
  t.equal(empty.status, 200);
  t.strictSame(empty.body.data, []);
  // The administrator types the global fees (the inputs are `required`) and adds Germany in euros.
  const global = await admin.adapter('POST', '/v1/ticket-fees', {
    body: record({ country: 'global', service: 1.5, maximum: 10 }),
  });
  t.equal(global.status, 201, JSON.stringify(global.body.errors ?? ''));
  t.match(global.body.data.attributes, { country: 'global', currency: '', 'service-fee': 1.5, 'maximum-fee': 10 });
  const germany = await admin.adapter('POST', '/v1/ticket-fees', {
    body: record({ country: 'DE', currency: 'EUR', service: 2.5, maximum: 0 }),
  });
  t.equal(germany.status, 201);
  const all = await findAll();
  t.strictSame(all.body.data.map((d: { attributes: { country: string } }) => d.attributes.country).sort(), [
    'DE',
    'global',
  ]);
  t.strictSame(
    await ticketFeeFor(app.db, 'EUR', 'DE'),
    { serviceFee: 2.5, maximumFee: 0 },
    'the order computation reads it',
  );
});

t.test('saving the page again: every record PATCHed as read back, changed or not', async (t) => {
  const all = (await findAll()).body.data as { id: string; attributes: Record<string, unknown> }[];
  for (const fee of all) {
    const changed = fee.attributes.country === 'DE' ? { ...fee.attributes, 'service-fee': 3 } : fee.attributes;
    const res = await admin.adapter('PATCH', `/v1/ticket-fees/${fee.id}`, {
      body: { data: { id: fee.id, type: 'ticket-fee', attributes: changed } },
    });
    t.equal(res.status, 200, JSON.stringify(res.body.errors ?? ''));
  }
  t.strictSame(await ticketFeeFor(app.db, 'EUR', 'DE'), { serviceFee: 3, maximumFee: 0 });
  // An emptied number input goes out as null: the fee is 0.
  const germany = all.find((f) => f.attributes.country === 'DE')!;
  const cleared = await admin.adapter('PATCH', `/v1/ticket-fees/${germany.id}`, {
    body: record({ country: 'DE', currency: 'EUR', service: null, maximum: null }, germany.id),
  });
  t.match(cleared.body.data.attributes, { 'service-fee': 0, 'maximum-fee': 0 });
});

t.test(
  'what the page cannot save: a second row of a currency and country, a country row without a currency',
  async (t) => {
    const twice = await admin.adapter('POST', '/v1/ticket-fees', {
      body: record({ country: 'DE', currency: 'EUR', service: 1, maximum: 1 }),
    });
    t.equal(twice.status, 409);
    t.equal(twice.body.errors[0].source.pointer, '/data/attributes/currency');
    // "Add New" then Save before choosing a currency.
    const noCurrency = await admin.adapter('POST', '/v1/ticket-fees', {
      body: record({ country: 'FR', service: 0, maximum: 0 }),
    });
    t.equal(noCurrency.status, 422);
    t.equal(noCurrency.body.errors[0].source.pointer, '/data/attributes/currency');
    const percent = await admin.adapter('POST', '/v1/ticket-fees', {
      body: record({ country: 'FR', currency: 'EUR', service: 150, maximum: 0 }),
    });
    t.equal(percent.status, 422);
    t.equal(percent.body.errors[0].source.pointer, '/data/attributes/service-fee');
    t.equal((await findAll()).body.meta.count, 2, 'nothing written');
  },
);

t.test('the trash icon deletes a row; only administrators reach the page', async (t) => {
  const germany = ((await findAll()).body.data as { id: string; attributes: { country: string } }[]).find(
    (f) => f.attributes.country === 'DE',
  )!;
  const user = frontEnd(base, (await seedUser(app)).token);
  t.equal((await user.adapter('GET', '/v1/ticket-fees')).status, 403);
  t.equal((await user.adapter('DELETE', `/v1/ticket-fees/${germany.id}`)).status, 403);
  t.equal((await frontEnd(base).adapter('GET', '/v1/ticket-fees')).status, 401);
  const gone = await admin.adapter('DELETE', `/v1/ticket-fees/${germany.id}`);
  t.equal(gone.status, 200);
  t.strictSame(gone.body.meta, { message: 'Object successfully deleted' });
  t.equal(await ticketFeeFor(app.db, 'EUR', 'DE'), undefined);
});
