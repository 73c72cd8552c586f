/**
 * open-event-frontend:app/adapters/access-code.js with app/components/public/ticket-list.js (applyPromotionalCode):
 * the public page looks the promotional code up as an access code, `store.queryRecord('access-code',
 * {eventIdentifier: event.id, code})` (GET /v1/events/{id}/access-codes/{code}, the query as parameters too, no
 * include), then `accessCode.get('tickets')` and shows those hidden tickets. The lookup includes them (ember-data
 * then has them without another request), readable in that request only: the hidden tickets stay hidden from the
 * same caller everywhere else, and from everyone without the code.
 */
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { accessCodeDocument } from '../helpers/code-bodies.js';
import { create, createCast, createEvent, rel } from '../helpers/events.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';
import { ticketAttributes } from '../helpers/ticket-bodies.js';
import { accessCodeFor } from '../../src/resources/access-codes/usage.js';

const { app } = await buildTestApp(t);
const base = await listening(app);
const cast = await createCast(app);
const { id: event, identifier } = await createEvent(app, cast, 'Crew Conf', 'published');
const token = cast.owner.token;
const of = { event: rel('event', event) };
await create(app, token, 'tickets', 'ticket', ticketAttributes({ name: 'Public' }), of);
const crew = await create(app, token, 'tickets', 'ticket', ticketAttributes({ name: 'Crew', 'is-hidden': true }), of);
const press = await create(app, token, 'tickets', 'ticket', ticketAttributes({ name: 'Press', 'is-hidden': true }), of);

async function code(attributes: Record<string, unknown>, tickets: string[]) {
  const res = await frontEnd(base, token).adapter('POST', '/v1/access-codes', {
    body: accessCodeDocument({ event, marketer: cast.owner.id, tickets, attributes }),
  });
  if (res.status !== 201) throw new Error(`code: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}
const crewCode = await code({ code: 'CREW' }, [crew]);
await code({ code: 'SLEEPING', 'is-active': false }, [press]);

const lookUp = (who: string | undefined, text: string, query: Record<string, unknown> = {}) =>
  frontEnd(base, who).adapter('GET', `/v1/events/${event}/access-codes/${text}`, {
    query: { eventIdentifier: event, code: text, ...query },
  });

t.test('the code shows its hidden tickets to whoever presents it', async (t) => {
  for (const who of [undefined, cast.other.token]) {
    const res = await lookUp(who, 'crew');
    t.equal(res.status, 200, JSON.stringify(res.body?.errors));
    t.match(res.body.data, {
      id: crewCode,
      type: 'access-code',
      attributes: { code: 'CREW', 'is-active': true },
      relationships: { tickets: { data: [{ type: 'ticket', id: crew }] }, event: { data: { id: event } } },
    });
    t.match(res.body.included, [{ type: 'ticket', id: crew, attributes: { name: 'Crew', 'is-hidden': true } }]);
    // Elsewhere the hidden tickets stay hidden from the same caller.
    t.equal((await frontEnd(base, who).adapter('GET', `/v1/tickets/${crew}`)).status, 404);
    const list = await frontEnd(base, who).adapter('GET', `/v1/events/${identifier}/tickets`);
    t.strictSame(
      list.body.data.map((d: { attributes: { name: string } }) => d.attributes.name),
      ['Public'],
    );
  }
  const fields = await lookUp(cast.other.token, 'CREW', { include: 'event' });
  t.notOk(
    fields.body.included.some((r: { type: string }) => r.type === 'ticket'),
    'another include replaces the tickets',
  );
});

t.test('an inactive code shows nothing (422); an unknown one is 404', async (t) => {
  const off = await lookUp(cast.other.token, 'SLEEPING');
  t.equal(off.status, 422);
  t.match(off.body.errors[0], { detail: /not active/, source: { parameter: 'code' } });
  t.equal((await lookUp(cast.other.token, 'NOTHING')).status, 404);
});

t.test('accessCodeFor: the code by text or id, with its tickets and uses left', async (t) => {
  const use = await accessCodeFor(app.db, Number(event), 'crew');
  t.equal(use.code.id, Number(crewCode));
  t.strictSame(use.ticketIds, [Number(crew)]);
  t.equal(use.used, 0);
  t.equal(use.remaining, 10);
  await t.rejects(accessCodeFor(app.db, Number(event), 'sleeping'), /not active/);
  await t.rejects(accessCodeFor(app.db, Number(event) + 1000, 'crew'), /does not exist/);
});

t.test('by id and in lists, a buyer finds nothing', async (t) => {
  for (const who of [undefined, cast.other.token]) {
    t.equal((await frontEnd(base, who).adapter('GET', `/v1/access-codes/${crewCode}`)).status, 404);
    t.equal((await frontEnd(base, who).adapter('GET', `/v1/access-codes/${crewCode}/tickets`)).status, 404);
  }
  t.equal((await frontEnd(base, cast.other.token).adapter('GET', `/v1/events/${event}/access-codes`)).status, 403);
  const mine = await frontEnd(base, cast.other.token).adapter('GET', '/v1/access-codes');
  t.strictSame(mine.body.data, []);
});
