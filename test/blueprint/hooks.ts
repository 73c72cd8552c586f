/**
 * The state an example assumes beyond the world, made before its transaction as the reference's Dredd hooks
 * make it (tests/hook_main.py), and what of the request it changes: a token the example shows as a placeholder
 * (a mailed link's, a refresh token), another caller, a URL parameter.
 */
import { simpleParser } from 'mailparser';
import { hashPassword } from '../../src/auth/password.js';
import { call, until } from '../helpers/app.js';
import { ticketAttributes } from '../helpers/ticket-bodies.js';
import { seedUser } from '../helpers/users.js';
import { LOGIN, type BlueprintWorld } from './world.js';

export interface Prepared {
  /** Another caller's token (the administrator's otherwise); null: no Authorization header. */
  token?: string | null;
  /** Changes the example's body (parsed JSON) before it is sent. */
  body?: (body: any) => any;
  /** Values for URL parameters, sent as given (`task_id`, which the world has no collection for). */
  parameters?: Record<string, string>;
  /** The payload instead of a body that is not JSON (the example's multipart text, as written). */
  raw?: (text: string) => string | Buffer;
  /** Headers the example leaves out (a body's Content-Type). */
  headers?: Record<string, string>;
  /** Changes the URL built from the example's (a path the blueprint misspells). */
  url?: (url: string) => string;
}

/**
 * The examples' multipart bodies end after the part's headers (no content, no closing boundary), which is why the
 * reference's hooks skip them: the part is completed with `content`, the way a browser sends the file.
 */
const completePart = (content: Buffer) => (text: string) => {
  const head = text.replace(/\r?\n/g, '\r\n').replace(/(\r\n)*$/, '\r\n\r\n');
  const boundary = /^--(\S+)/.exec(head)?.[1] ?? '';
  return Buffer.concat([Buffer.from(head), content, Buffer.from(`\r\n--${boundary}--\r\n`)]);
};

const json = { 'content-type': 'application/json' };

async function post(w: BlueprintWorld, url: string, body: unknown, token?: string) {
  const res = await call(w.app, { method: 'POST', url, body, token, headers: json });
  if (res.status >= 300) throw new Error(`${url}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A login of the authentication examples' account: its access and refresh tokens. */
const loginPair = (w: BlueprintWorld): Promise<{ access_token: string; refresh_token: string }> =>
  post(w, '/v1/auth/login', LOGIN);

/**
 * The token of the link in the last mail to `address`: the app's workers compose it (the token is issued then) and
 * the mailer keeps every message in `mails`.
 */
async function mailedToken(w: BlueprintWorld, address: string, after: number): Promise<string> {
  const raw = await until(
    `a mail to ${address}`,
    async () => {
      const [mail] = await w.app.sql<{ raw: Buffer | null }[]>`
        select raw from mails where recipient = ${address} and raw is not null and id > ${after}
        order by id desc limit 1`;
      return mail?.raw ?? undefined;
    },
    60_000,
  );
  const text = (await simpleParser(raw)).text ?? '';
  const match = /[?&]token=([^\s"<>&]+)/.exec(text);
  if (!match) throw new Error(`no token link in the mail to ${address}`);
  return decodeURIComponent(match[1]!);
}

const withToken = (token: string) => (body: any) => ({ ...body, data: { ...body.data, token } });

/** The id of the last mail so far: a token mailed later is looked for after it. */
async function lastMail(w: BlueprintWorld): Promise<number> {
  const [row] = await w.app.sql<{ id: number }[]>`select coalesce(max(id), 0)::int as id from mails`;
  return row!.id;
}

/** A role invite of the world's event to `email`, and its mailed token. */
async function invite(w: BlueprintWorld, email: string): Promise<string> {
  const after = await lastMail(w);
  await w.create(
    'role-invites',
    'role-invite',
    { email, 'role-name': 'coorganizer' },
    {
      event: { data: { type: 'event', id: w.id('events') } },
    },
  );
  return mailedToken(w, email, after);
}

/**
 * The world's code of `table` usable now (an Update example before made it inactive and dated it), and its text:
 * the lookup by code answers 422 for a code that cannot be used.
 */
async function usableCode(w: BlueprintWorld, table: 'discount_codes' | 'access_codes', collection: string) {
  const [row] = await w.app.sql<{ code: string }[]>`
    update ${w.app.sql(table)} set is_active = true, valid_from = now() - interval '1 day', valid_till = now() + interval '30 days',
      tickets_number = null, min_quantity = 0, max_quantity = 100
    where id = ${Number(w.id(collection))} returning code`;
  return { parameters: { code: row!.code } };
}

/** An administrator's event code for the world's event (the reference's events.discount_code_id), made once. */
async function eventCode(w: BlueprintWorld): Promise<string> {
  let id = w.notes.get('event-code');
  if (!id) {
    id = await w.create(
      'discount-codes',
      'discount-code',
      { code: 'EVENTFEE', type: 'percent', value: 10, 'used-for': 'event' },
      { events: { data: [{ type: 'event', id: w.id('events') }] } },
    );
    w.notes.set('event-code', id);
  }
  await w.app.sql`update events set discount_code_id = ${Number(id)} where id = ${Number(w.id('events'))}`;
  return id;
}

/**
 * The tickets the checkout examples name (1 to 4: paid, paid, donation, free; 5 another free one), made once in the
 * world's event: the world's paid ticket and four more.
 */
async function checkoutTickets(w: BlueprintWorld): Promise<Record<string, string>> {
  const made = w.notes.get('checkout-tickets');
  if (made) return JSON.parse(made);
  const ticket = (name: string, over: Record<string, unknown>) =>
    w.create('tickets', 'ticket', ticketAttributes({ name, ...over }), {
      event: { data: { type: 'event', id: w.id('events') } },
    });
  const ids = {
    '1': w.id('tickets'),
    '2': await ticket('Workshop', { type: 'paid', price: 456.3 }),
    '3': await ticket('Supporter', { type: 'donation', 'min-price': 1, 'max-price': 1000 }),
    '4': await ticket('Community', { type: 'free' }),
    '5': await ticket('Volunteer', { type: 'free' }),
  };
  w.notes.set('checkout-tickets', JSON.stringify(ids));
  return ids;
}

/**
 * The checkout examples' body with the world's tickets and discount code (usable now, of the world's paid ticket),
 * the event's tax enabled as the example's GST is.
 */
async function checkoutBody(w: BlueprintWorld) {
  const ids = await checkoutTickets(w);
  await usableCode(w, 'discount_codes', 'discount-codes');
  await w.app.sql`update events set is_tax_enabled = true where id = ${Number(w.id('events'))}`;
  return (body: any) => ({
    ...body,
    tickets: body.tickets.map((t: { id: number }) => ({ ...t, id: Number(ids[String(t.id)]) })),
    discount_code: w.id('discount-codes'),
  });
}

/** A new open order of the world's paid ticket (initializing, 100.00), made as the front end's checkout makes one. */
async function openOrder(w: BlueprintWorld): Promise<string> {
  const made = await post(w, '/v1/orders/create-order', { tickets: [{ id: w.id('tickets'), quantity: 1 }] }, w.token);
  return made.data.attributes.identifier;
}

const jsonApiBody = { 'content-type': 'application/vnd.api+json' };

export const BEFORE: Record<string, (w: BlueprintWorld) => Promise<Prepared>> = {
  // As the reference's hook: the ticket's badge is the one the world's badge field form is on.
  'Badge Forms > Get Badge Form By Ticket > Get Badge Form By Ticket': async (w) => {
    await w.app.sql`update tickets set badge_id = (select badge_id from badge_field_forms
      where id = ${Number(w.id('badge-field-forms'))}) where id = ${Number(w.id('tickets'))}`;
    return {};
  },
  'Orders > Calculate Order Amount > Calculate Order Amount': async (w) => ({ body: await checkoutBody(w) }),
  'Orders > Create Order > Create Order': async (w) => ({ body: await checkoutBody(w) }),
  // The example sells free tickets at the door (its payment mode is free): the world's two free tickets.
  'Orders > Create Order with on site Attendees > Create Order with on site Attendees': async (w) => {
    const ids = await checkoutTickets(w);
    const door: Record<string, string> = { '1': ids['4']!, '2': ids['5']! };
    return {
      body: (body) => {
        const a = body.data.attributes;
        const tickets = a['on-site-tickets'].map((t: any) => ({
          data: { ...t.data, attributes: { ...t.data.attributes, id: door[t.data.attributes.id] } },
        }));
        return { ...body, data: { ...body.data, attributes: { ...a, 'on-site-tickets': tickets } } };
      },
    };
  },
  // An order that could still be paid (the world's is completed), and the Content-Type the example leaves out.
  'Orders > Charge > Charge for an Order': async (w) => ({
    parameters: { order_identifier: await openOrder(w) },
    headers: jsonApiBody,
  }),
  // As Charge; the blueprint's path lacks the /v1 of the reference's route (order_misc_routes).
  'Orders > Create Paypal payment > Create Paypal payment for an Order': async (w) => ({
    parameters: { order_identifier: await openOrder(w) },
    headers: jsonApiBody,
    url: (url) => `/v1${url}`,
  }),
  // The sales of a marketer: an order the world's discount code lowered (Create Order, before, made one).
  'Admin Sales > Sales by Marketer Details > Show Sales by Marketer': async (w) => {
    const [row] = await w.app.sql`select 1 from orders where marketer_id is not null and deleted_at is null limit 1`;
    if (!row) {
      const body = (await checkoutBody(w))({ tickets: [{ id: 1, quantity: 1 }] });
      await post(w, '/v1/orders/create-order', body, w.token);
    }
    return {};
  },
  // The events of a code are an event code's: the world's event code for this one, the ticket code after it.
  'Events > Events for a Discount Code > List All Events for a Discount Code': async (w) => {
    w.notes.set('ticket-code', w.id('discount-codes'));
    w.ids.set('discount-codes', await eventCode(w));
    return {};
  },
  'Events > Get Event for a Discount Code > Event Details for a Discount Code': async (w) => {
    w.ids.set('discount-codes', w.notes.get('ticket-code') ?? w.id('discount-codes'));
    return {};
  },
  'Discount Codes > Get Discount Code Detail using the code > Get Discount Code Detail': (w) =>
    usableCode(w, 'discount_codes', 'discount-codes'),
  'Discount Codes > Get Discount Code Detail of an Event > Get Discount Code Detail of an Event': async (w) => {
    await eventCode(w);
    return {};
  },
  'Access Codes > Access Code Detail using the Code > Access Code Detail': (w) =>
    usableCode(w, 'access_codes', 'access-codes'),
  // The world's access code shows a hidden ticket of its own (world.ts): the access codes of that one.
  'Access Codes > Get Access Codes for a Ticket > List All Access Codes for a Ticket': async (w) => ({
    parameters: { ticket_id: w.notes.get('hidden-ticket') ?? w.id('tickets') },
  }),
  // The hooks' fresh database had no event code yet; an example before made the world's event one.
  'Discount Codes > Event Discount Code Collection > Create Event Discount Code': async (w) => {
    await w.app.sql`update events set discount_code_id = null where id = ${Number(w.id('events'))}`;
    return {};
  },
  'Upload > File Upload > Upload a File': async () => ({ raw: completePart(Buffer.from('name,rating\nAda,5\n')) }),
  // An archive as an export writes it, of the world's event (exported while the world was built).
  'Event Import > Start Event Import > Start a Task to Import an Event': async (w) => ({
    raw: completePart((await w.exported).archive),
  }),
  // The refresh token of a login, in the Authorization header as the mobile example sends it.
  'Authentication > Token Refresh > Access Token Refresh for mobile': async (w) => ({
    token: (await loginPair(w)).refresh_token,
  }),
  // The hooks' fresh database has the event published; Update Event, replayed before, made the world's a private draft.
  'Events > Upcoming Events Collection > List All Upcoming Events': async (w) => {
    await w.app.sql`update events set state = 'published', privacy = 'public' where id = ${Number(w.id('events'))}`;
    return {};
  },
  // Logging out ends a login: one of its own, not the token every other example carries.
  'Authentication > Logout > Logout': async (w) => ({ token: (await loginPair(w)).access_token }),
  // The hooks' fresh database had no account with the example's address: the login account gives it up.
  'Users > Users Collection > Create User': async (w) => {
    await w.app.sql`update users set email = 'login-moved@example.com' where email = ${LOGIN.email}`;
    return {};
  },
  'Role Invites > User Email Details By Role Invite > Get User Email Detail By Role Invite Token': async (w) => ({
    body: withToken(await invite(w, 'invitee-lookup@example.com')),
  }),
  // The invitee accepts their own invite (the reference's hooks skip this one).
  'Role Invites > Accept Role Invite > Accept Role Invite using Token': async (w) => ({
    token: w.user.token,
    body: withToken(await invite(w, w.user.email)),
  }),
  // The example's old password is the reference's super administrator's: the world's is another account's.
  'Change Password > Change Password > Change password using old password': async (w) => {
    const user = await seedUser(w.app);
    await w.app.sql`update users set password_hash = ${await hashPassword('fossasia')} where id = ${Number(user.id)}`;
    return { token: (await post(w, '/v1/auth/login', { email: user.email, password: 'fossasia' })).access_token };
  },
  'Change Password > Reset Forgotten Password > Reset Password from Token': async (w) => {
    const after = await lastMail(w);
    await post(w, '/v1/auth/reset-password', { data: { email: w.user.email } });
    return { body: withToken(await mailedToken(w, w.user.email, after)), token: null };
  },
  // An account that is not verified yet asks again (the example names the administrator, who is).
  'Email Verification > Resend Email Verification > Get User Verification Token Again': async (w) => {
    const { email, token } = await seedUser(w.app);
    w.notes.set('unverified', email);
    w.notes.set('unverified-after', String(await lastMail(w)));
    return { body: (body) => ({ ...body, data: { ...body.data, email } }), token };
  },
  'Email Verification > Verify Email > Verify the email via auth token': async (w) => ({
    body: withToken(await mailedToken(w, w.notes.get('unverified') ?? '', Number(w.notes.get('unverified-after')))),
    token: null,
  }),
  // The example prints the badge of attendee 1: the world's ticket holder, whose ticket wears the world's badge form.
  'Event Export > Start Badge Export as PDF > Start a Task to Export Badge of an Event as PDF': async (w) => {
    const attendee = w.id('attendees');
    await w.app
      .sql`update tickets set badge_id = (select badge_id from badge_forms where id = ${Number(w.id('badge-forms'))})
      where id = (select ticket_id from attendees where id = ${Number(attendee)})`;
    return { url: (url) => url.replace(/([?&]attendee_id=)[^&]*/, `$1${attendee}`) };
  },
  // An ended task, as the reference's celery task: the world's export.
  'Celery Tasks > Task Details > Get Task Result': async (w) => ({
    parameters: { task_id: (await w.exported).taskUrl.split('/').pop()! },
  }),
};
