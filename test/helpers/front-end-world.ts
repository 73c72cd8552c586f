/**
 * The world the browser suite walks, seeded through the API: an administrator, an organiser (the owner),
 * a co-organiser, a speaker and an attendee, all verified; a published event with tracks, rooms, session
 * types, speakers, sessions in every state, a free and a paid ticket (payable by bank transfer), the attendee form, a
 * completed order with attendees and an order being filled in, sponsors, a call for speakers, a group and a video
 * stream; and a draft event.
 */
import type { FastifyInstance } from 'fastify';
import { call } from './app.js';
import { create, createEvent, fillEvent, rel, type Cast } from './events.js';
import { attendeeAttributes, speakersCallAttributes } from './ticket-bodies.js';
import { createTicket } from './tickets.js';
import { type FrontEndInvoices, seedInvoices } from './front-end-invoices.js';
import { seedUser, type TestUser } from './users.js';

/** Every state a session may be in (the reference's app/models/session.py and the front end's session lists). */
export const SESSION_STATES = [
  'draft',
  'pending',
  'accepted',
  'confirmed',
  'rejected',
  'canceled',
  'withdrawn',
] as const;

/** The token of the role invite's mailed link (the mail itself is not sent: the test app runs no workers). */
export const ROLE_INVITE_TOKEN = 'front-end-world-role-invite-token';

export interface FrontEndWorld {
  admin: TestUser;
  organizer: TestUser;
  coorganizer: TestUser;
  speaker: TestUser;
  attendee: TestUser;
  topic: string;
  event: string;
  identifier: string;
  draft: { event: string; identifier: string };
  track: string;
  room: string;
  sessionType: string;
  sponsor: string;
  speakerRecord: string;
  /** The speaker user's own session (accepted) and one per state. */
  session: string;
  sessions: Record<(typeof SESSION_STATES)[number], string>;
  ticket: string;
  /** The paid ticket (25.00). */
  paidTicket: string;
  /** A discount code of the event (on its paid ticket) and an access code. */
  discountCode: string;
  accessCode: string;
  order: string;
  orderIdentifier: string;
  /** The attendee's order still being filled in (initializing). */
  openOrderIdentifier: string;
  speakersCallHash: string;
  attendeeRecord: string;
  group: string;
  videoStream: string;
  speakerInvite: string;
  /** The event's invoices: one due, one paid (billed to its owner, the organizer). */
  invoices: FrontEndInvoices;
}

export async function seedFrontEndWorld(app: FastifyInstance): Promise<FrontEndWorld> {
  const [admin, organizer, coorganizer, speaker, attendee] = [
    await seedUser(app, { admin: true, superAdmin: true }),
    await seedUser(app),
    await seedUser(app),
    await seedUser(app),
    await seedUser(app),
  ] as TestUser[];
  // Verified, and with a public name: the home page asks anyone without one for it in a modal, two seconds after a login
  // (app/routes/index.js), which would cover whatever page a slow machine has not yet moved on to.
  await app.sql`update users set is_verified = true, public_name = coalesce(public_name, 'Member ' || id)`;
  const cast: Cast = {
    owner: organizer!,
    organizer: organizer!,
    coorganizer: coorganizer!,
    speaker: speaker!,
    other: attendee!,
    admin: admin!,
  };
  const topic = await create(app, admin!.token, 'event-topics', 'event-topic', { name: 'Science & Technology' });
  const pub = await createEvent(app, cast, 'Open Summit', 'published', topic);
  const draft = await createEvent(app, cast, 'Secret Camp', 'draft', topic);
  const records = await fillEvent(app, cast, pub.id);
  await fillEvent(app, cast, draft.id);
  const token = organizer!.token;
  const of = { event: rel('event', pub.id) };
  // Its call for speakers takes submissions; its tickets may be paid by bank transfer.
  const open = await call(app, {
    method: 'PATCH',
    url: `/v1/events/${pub.id}`,
    token,
    body: {
      data: {
        type: 'event',
        id: pub.id,
        attributes: {
          'is-sessions-speakers-enabled': true,
          'can-pay-by-bank': true,
          'bank-details': 'IBAN DE02 1001 0010 0006 8201 01, Open Summit e.V.',
        },
      },
    },
  });
  if (open.status !== 200) throw new Error(`opening the call: ${open.status} ${JSON.stringify(open.body)}`);
  // The call for speakers finds a speaker's own record by their address (app/routes/public/cfs/new-session.js).
  const own = await call(app, {
    method: 'PATCH',
    url: `/v1/speakers/${records.speaker}`,
    token,
    body: { data: { type: 'speaker', id: records.speaker, attributes: { email: speaker!.email } } },
  });
  if (own.status !== 200) throw new Error(`the speaker's address: ${own.status} ${JSON.stringify(own.body)}`);
  // The session form of the call for speakers shows the fields of the event's session form.
  await create(
    app,
    token,
    'custom-forms',
    'custom_form',
    {
      form: 'session',
      'field-identifier': 'title',
      name: 'Title',
      type: 'text',
      'is-included': true,
      'is-required': true,
    },
    of,
  );

  // The attendee form's fields: the compulsory email every new event has (default-forms.ts, as the reference's
  // app/api/helpers/events.py) and the names, included and required as an organizer sets them in the attendee form
  // (app/mixins/custom-form.js names them).
  for (const [field, type] of [
    ['firstname', 'text'],
    ['lastname', 'text'],
  ])
    await create(
      app,
      token,
      'custom-forms',
      'custom_form',
      {
        form: 'attendee',
        'field-identifier': field,
        name: field,
        type,
        'is-fixed': true,
        'is-included': true,
        'is-required': true,
      },
      of,
    );

  const sessions = {} as FrontEndWorld['sessions'];
  for (const [i, state] of SESSION_STATES.entries())
    sessions[state] = await create(
      app,
      token,
      'sessions',
      'session',
      {
        title: `A ${state} talk`,
        'starts-at': `2030-05-02T${String(10 + i).padStart(2, '0')}:00:00Z`,
        'ends-at': `2030-05-02T${String(10 + i).padStart(2, '0')}:45:00Z`,
        // A session is withdrawn by its speaker, from a state it was submitted in.
        state: state === 'withdrawn' ? 'pending' : state,
      },
      {
        ...of,
        track: rel('track', records.track),
        microlocation: rel('microlocation', records.microlocation),
        'session-type': rel('session-type', records.sessionType),
        speakers: { data: [{ type: 'speaker', id: records.speaker }] },
      },
    );
  const withdrawn = await call(app, {
    method: 'PATCH',
    url: `/v1/sessions/${sessions.withdrawn}`,
    token: speaker!.token,
    body: { data: { type: 'session', id: sessions.withdrawn, attributes: { state: 'withdrawn' } } },
  });
  if (withdrawn.status !== 200) throw new Error(`withdrawing: ${withdrawn.status} ${JSON.stringify(withdrawn.body)}`);

  const call_ = speakersCallAttributes({ 'ends-at': '2030-04-01T00:00:00Z' });
  await create(app, token, 'speakers-calls', 'speakers-call', call_, of);
  const ticket = await createTicket(app, token, pub.id, { name: 'Standard' });
  const supporter = await createTicket(app, token, pub.id, { name: 'Supporter', type: 'paid', price: 25 });
  // The codes the discount-code and access-code edit pages open.
  const discountCode = await create(
    app,
    token,
    'discount-codes',
    'discount-code',
    { code: 'SUPPORT5', type: 'amount', value: 5 },
    { ...of, tickets: { data: [{ type: 'ticket', id: supporter }] } },
  );
  const accessCode = await create(app, token, 'access-codes', 'access-code', { code: 'BACKSTAGE' }, of);
  // The badge the badge page shows (app/components/forms/wizard/badge-step.js): the event prints badges, the free
  // ticket's is a form with two fields, saved as the page saves them (the fields within the form).
  const badge = 'front-end-world-badge';
  const field = (identifier: string, name: string) => ({
    badge_id: badge,
    field_identifier: identifier,
    custom_field: name,
    sample_text: name,
    font_size: 14,
    font_name: 'Arial',
    font_color: '#000000',
    text_rotation: 0,
    text_alignment: 'center',
    text_type: 'None',
    is_deleted: false,
    is_field_expanded: true,
  });
  await create(
    app,
    token,
    'badge-forms',
    'badge-form',
    {
      'badge-id': badge,
      'badge-size': '4 x 6 inch (101.6 x 152.4 mm)',
      'badge-orientation': 'Portrait',
      'badge-fields': [field('firstname', 'First Name'), field('QR', 'QR')],
    },
    of,
  );
  const badged = await call(app, {
    method: 'PATCH',
    url: `/v1/tickets/${ticket}`,
    token,
    body: { data: { type: 'ticket', id: ticket, attributes: { 'badge-id': badge } } },
  });
  if (badged.status !== 200) throw new Error(`the ticket's badge: ${badged.status} ${JSON.stringify(badged.body)}`);
  await app.sql`update events set is_badges_enabled = true where id = ${Number(pub.id)}`;
  // The attendee tags the front end makes when an event has none (app/routes/events/view/tags.js): its requests name
  // no event, so they are made here as the organizer's would be; and the administrators' global and German fees.
  for (const [name, color] of [
    ['Speakers', '#FF0000'],
    ['Attendees', '#0000FF'],
    ['VIPs', '#0000FF'],
  ])
    await create(app, token, 'tags', 'tag', { name, color, 'is-read-only': true }, of);
  await create(app, admin!.token, 'ticket-fees', 'ticket-fee', {
    country: 'global',
    'service-fee': 1,
    'maximum-fee': 5,
  });
  await create(app, admin!.token, 'ticket-fees', 'ticket-fee', {
    country: 'DE',
    currency: 'EUR',
    'service-fee': 2.5,
    'maximum-fee': 10,
  });

  const order = await create(app, attendee!.token, 'orders', 'order', { amount: 0 }, of);
  const attendeeRecord = await create(
    app,
    attendee!.token,
    'attendees',
    'attendee',
    attendeeAttributes({ firstname: 'Grace', lastname: 'Hopper', email: attendee!.email }),
    { ...of, order: rel('order', order), ticket: rel('ticket', ticket) },
  );
  const completed = await call(app, {
    method: 'PATCH',
    url: `/v1/orders/${order}`,
    token,
    body: { data: { type: 'order', id: order, attributes: { status: 'completed' } } },
  });
  if (completed.status !== 200)
    throw new Error(`completing the order: ${completed.status} ${JSON.stringify(completed.body)}`);

  // An order being filled in, reserved as the event page's checkout does: one blank holder of the free ticket.
  const reserved = await call(app, {
    method: 'POST',
    url: '/v1/orders/create-order',
    token: attendee!.token,
    body: { tickets: [{ id: ticket, quantity: 1 }] },
  });
  if (reserved.status !== 200) throw new Error(`reserving: ${reserved.status} ${JSON.stringify(reserved.body)}`);

  const group = await create(
    app,
    organizer!.token,
    'groups',
    'group',
    { name: 'Summits' },
    {
      events: { data: [{ type: 'event', id: pub.id }] },
    },
  );
  const videoStream = await create(
    app,
    token,
    'video-streams',
    'video-stream',
    { name: 'Main hall', url: 'https://meet.example.org/main', password: 'pw' },
    { rooms: { data: [{ type: 'microlocation', id: records.microlocation }] } },
  );
  // A session without speakers yet, to which the speaker is invited.
  const invitedTo = await create(app, token, 'sessions', 'session', { title: 'A workshop', state: 'pending' }, of);
  const speakerInvite = await create(
    app,
    token,
    'speaker-invites',
    'speaker-invite',
    { email: speaker!.email, status: 'pending' },
    { ...of, session: rel('session', invitedTo) },
  );
  // The speaker's schedule (the sessions they marked), shared at /e/{event}/schedule/user/{id}.
  await create(
    app,
    speaker!.token,
    'user-favourite-sessions',
    'user-favourite-session',
    {},
    {
      session: rel('session', records.session),
    },
  );
  // A role invite to the attendee, whose mailed link carries ROLE_INVITE_TOKEN (the service keeps its SHA-256).
  const roleInvite = await create(
    app,
    token,
    'role-invites',
    'role-invite',
    { email: attendee!.email, 'role-name': 'coorganizer' },
    of,
  );
  await app.sql`update role_invites set hash = encode(sha256(${ROLE_INVITE_TOKEN}::bytea), 'hex'),
    expires_at = now() + interval '1 day' where id = ${Number(roleInvite)}`;
  return {
    discountCode,
    accessCode,
    admin: admin!,
    organizer: organizer!,
    coorganizer: coorganizer!,
    speaker: speaker!,
    attendee: attendee!,
    topic,
    event: pub.id,
    identifier: pub.identifier,
    draft: { event: draft.id, identifier: draft.identifier },
    track: records.track,
    room: records.microlocation,
    sessionType: records.sessionType,
    sponsor: records.sponsor,
    speakerRecord: records.speaker,
    session: records.session,
    sessions,
    ticket,
    paidTicket: supporter,
    order,
    orderIdentifier: completed.body.data.attributes.identifier,
    openOrderIdentifier: reserved.body.data.attributes.identifier,
    speakersCallHash: call_.hash as string,
    attendeeRecord,
    group,
    videoStream,
    speakerInvite,
    invoices: await seedInvoices(app, pub.id, organizer!.id),
  };
}
