/**
 * Sign-ups (POST /v1/users as open-event-frontend's app/controllers/register.js saves the user, and the
 * assistant's /aaa/signup.json): at most SIGNUP_RATE_PER_IP new accounts from one client address and
 * SIGNUP_RATE_PER_DOMAIN for one address domain per SIGNUP_WINDOW_SECONDS. Past either, 429 with
 * `Retry-After` in the face's own error format and no account; parallel registrations are counted one
 * after the other; a refused one (address taken) counts nothing; an administrator's creations do not count.
 */
import type { FastifyInstance } from 'fastify';
import t, { type Test } from 'tap';
import { assertError, buildTestApp } from '../helpers/app.js';
import { seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t, {
  SIGNUP_RATE_PER_IP: '3',
  SIGNUP_RATE_PER_DOMAIN: '5',
  SIGNUP_WINDOW_SECONDS: '3600',
});

let clients = 0;
/** A client address of its own, so that the per-client limit only counts where a test means it to. */
const nextClient = () => `203.0.113.${++clients}`;
let people = 0;
const address = (domain: string) => `person${++people}@${domain}`;

/** register.js:24 `this.model.save()`: what app/serializers/user.js sends, from `from`. */
async function register(on: FastifyInstance, email: string, from: string, token?: string) {
  const res = await on.inject({
    method: 'POST',
    url: '/v1/users',
    remoteAddress: from,
    headers: { 'content-type': 'application/vnd.api+json', ...(token ? { authorization: `JWT ${token}` } : {}) },
    payload: JSON.stringify({
      data: { type: 'user', attributes: { email, password: 'long enough', 'was-registered-with-order': false } },
    }),
  });
  return { status: res.statusCode, headers: res.headers, body: res.json() };
}

/** register.js:27-33 reads `reason.errors[0].status`: a JSON:API error document, with a Retry-After within the window. */
function assertLimited(t: Test, res: Awaited<ReturnType<typeof register>>) {
  assertError(
    t,
    res,
    429,
    undefined,
    /^Too many new accounts from this client address or for this address's domain; try again in \d+ seconds$/,
  );
  t.equal(res.body.errors[0].status, '429');
  const retry = Number(res.headers['retry-after']);
  t.ok(
    Number.isInteger(retry) && retry >= 1 && retry <= 3600,
    `Retry-After ${res.headers['retry-after']} within the window`,
  );
}

const accounts = async () => (await app.sql`select count(*)::int as n from users`)[0]!.n as number;

t.test('16 registrations at once from one client: 3 accounts, 13 refusals with Retry-After', async (t) => {
  const before = await accounts();
  const from = nextClient();
  const answers = await Promise.all(Array.from({ length: 16 }, () => register(app, address('one.example'), from)));
  t.equal(answers.filter((a) => a.status === 201).length, 3, 'SIGNUP_RATE_PER_IP accounts');
  const refused = answers.filter((a) => a.status !== 201);
  t.equal(refused.length, 13);
  for (const res of refused) assertLimited(t, res);
  t.equal(await accounts(), before + 3, 'no account past the limit');
});

t.test('a registration refused for a taken address counts nothing', async (t) => {
  const from = nextClient();
  const taken = await seedUser(app);
  for (let i = 0; i < 4; i++) t.equal((await register(app, taken.email, from)).status, 409, `taken ${i + 1}`);
  t.equal((await register(app, address('two.example'), from)).status, 201, 'the client still has its sign-ups');
});

t.test('per domain: many clients cannot flood one domain; other domains still sign up', async (t) => {
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) statuses.push((await register(app, address('victim.example'), nextClient())).status);
  t.same(statuses, [201, 201, 201, 201, 201, 429], 'SIGNUP_RATE_PER_DOMAIN accounts for one domain, from six clients');
  assertLimited(t, await register(app, address('VICTIM.example'), nextClient()));
  t.equal((await register(app, address('other.example'), nextClient())).status, 201, 'another domain');
});

t.test("an administrator's creations do not count", async (t) => {
  const admin = await seedUser(app, { admin: true });
  const from = nextClient();
  for (let i = 0; i < 5; i++)
    t.equal((await register(app, address('staff.example'), from, admin.token)).status, 201, `created ${i + 1}`);
  t.equal((await register(app, address('three.example'), from)).status, 201, 'the client still has its own');
});

t.test('/aaa/signup.json shares the limits and answers in the assistant format', async (t) => {
  const from = nextClient();
  const signup = (email: string) =>
    app.inject({
      method: 'GET',
      url: `/aaa/signup.json?${new URLSearchParams({ signup: email, password: 'long enough' })}`,
      remoteAddress: from,
    });
  for (let i = 0; i < 2; i++) t.equal((await signup(address('four.example'))).statusCode, 200, `signup ${i + 1}`);
  t.equal((await register(app, address('four.example'), from)).status, 201, 'the third, by the event service');
  const res = await signup(address('four.example'));
  t.equal(res.statusCode, 429);
  t.match(res.json(), { accepted: false, message: /^Too many new accounts/ });
  t.ok(Number(res.headers['retry-after']) >= 1, 'Retry-After');
});
