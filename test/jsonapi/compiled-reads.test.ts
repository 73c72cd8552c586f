/**
 * A read's statement is compiled once per caller and URL (src/jsonapi/read.ts, `execute`) and kept
 * across changes of the data: what it is built from is the route, the URL and the caller's id, rights
 * and address, never the rows. These tests hold the statement cache to that: it compiles once, it
 * answers the data as it is now, another caller or a changed right is another statement; and the
 * statement's text has the policies' fixed states (`constant`) and only the columns JavaScript reads.
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { create, createCast, createEvent, rel } from '../helpers/events.js';
import { seedUser } from '../helpers/users.js';

const { app, url, queries, resetQueries } = await buildTestApp(t);
const cast = await createCast(app);
const event = await createEvent(app, cast, 'Compiled Conf', 'published');
const draft = await createEvent(app, cast, 'Compiled Camp', 'draft');
const of = { event: rel('event', event.id) };
const session = await create(app, cast.owner.token, 'sessions', 'session', { title: 'Before', state: 'accepted' }, of);
await create(app, cast.owner.token, 'sessions', 'session', { title: 'Drafted', state: 'draft' }, of);

/**
 * Counts the reads the engine compiles: drizzle's `sqlToQuery` renders every statement, and a read's
 * builds its documents with `format(` (the caller's lookup of a token is rendered too, and not counted).
 */
const dialect = (app.db as unknown as { dialect: { sqlToQuery: (...a: unknown[]) => { sql: string } } }).dialect;
const render = dialect.sqlToQuery.bind(dialect);
let renders = 0;
dialect.sqlToQuery = (...args: unknown[]) => {
  const query = render(...args);
  if (query.sql.includes('format(')) renders++;
  return query;
};

/** GET `path` afresh; the status, the body, and how many statements were compiled for it. */
async function read(path: string, token?: string) {
  renders = 0;
  resetQueries();
  const res = await call(app, { url: path, token, headers: { 'cache-control': 'no-cache' } });
  return { ...res, compiled: renders, statements: [...queries] };
}

const sessions = `/v1/events/${event.id}/sessions?include=track&sort=title`;

t.test('the second read of a URL by the same caller runs the statement compiled for the first', async (t) => {
  const first = await read(sessions);
  t.equal(first.status, 200);
  t.ok(first.compiled >= 1, 'the first read compiles its statement');
  const second = await read(sessions);
  t.equal(second.compiled, 0, 'the second compiles nothing');
  t.strictSame(second.statements, first.statements, 'and sends the same statement');
  t.strictSame(second.body, first.body, 'with the same answer');
  t.ok((await read(`${sessions}&page[number]=2`)).compiled >= 1, 'another URL is another statement');
  t.ok((await read(sessions, cast.other.token)).compiled >= 1, 'another caller is another statement');
});

t.test('a kept statement answers the data as it is now', async (t) => {
  t.strictSame(
    (await read(sessions)).body.data.map((s: { attributes: { title: string } }) => s.attributes.title),
    ['Before'],
  );
  const patched = await call(app, {
    method: 'PATCH',
    url: `/v1/sessions/${session}`,
    token: cast.owner.token,
    body: { data: { type: 'session', id: session, attributes: { title: 'After' } } },
  });
  t.equal(patched.status, 200);
  const after = await read(sessions);
  t.equal(after.compiled, 0, 'the statement is kept across the change');
  t.strictSame(
    after.body.data.map((s: { attributes: { title: string } }) => s.attributes.title),
    ['After'],
    'and reads the new title',
  );
});

t.test("a write's answer is compiled once per caller and URL; the write itself is rendered each time", async (t) => {
  const patch = async (attributes: Record<string, unknown>, token = cast.owner.token) => {
    renders = 0;
    resetQueries();
    const res = await call(app, {
      method: 'PATCH',
      url: `/v1/sessions/${session}`,
      token,
      body: { data: { type: 'session', id: session, attributes } },
    });
    t.equal(res.status, 200);
    return {
      attributes: res.body.data.attributes as Record<string, unknown>,
      compiled: renders,
      statements: [...queries],
    };
  };
  await patch({ title: 'Written once' });
  const again = await patch({ title: "Written twice, with a $1 and a ' in it" });
  t.equal(again.compiled, 0, 'the second write of the URL compiles no answer');
  t.equal(again.attributes.title, "Written twice, with a $1 and a ' in it", 'and answers the value it wrote');
  const other = await patch({ subtitle: 'Another column', language: 'German' });
  t.equal(other.compiled, 0, 'another set of columns is another write, the same answer');
  t.match(other.attributes, {
    title: "Written twice, with a $1 and a ' in it",
    subtitle: 'Another column',
    language: 'German',
  });
  const update = other.statements.find((q) => q.includes('update "sessions"'))!;
  t.match(
    update,
    /^with "p0" as \(update "sessions" set "subtitle" = \$\d+, "language" = \$\d+/,
    "the write goes in the answer's place",
  );
  t.ok(
    (await patch({ title: 'By the organizer' }, cast.organizer.token)).compiled >= 1,
    'another caller: another answer',
  );
  t.equal(
    (await read(`/v1/sessions/${session}`)).body.data.attributes.title,
    'By the organizer',
    'a read sees what was written',
  );
});

t.test("the caller's rights are part of the key: a demoted administrator runs a statement of its own", async (t) => {
  const admin = await seedUser(app, { admin: true });
  const path = `/v1/events/${draft.id}/sessions`;
  t.equal((await read(path, admin.token)).status, 200, "an administrator reads a draft event's sessions");
  t.equal((await read(path, admin.token)).compiled, 0, 'twice with one statement');
  const { default: postgres } = await import('postgres');
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  await sql`update users set is_admin = false where id = ${Number(admin.id)}`;
  await sql.end();
  const demoted = await read(path, admin.token);
  t.equal(demoted.status, 404, 'the same token after the demotion: the draft does not exist for it');
  t.ok(demoted.compiled >= 1, "compiled for the account's new rights");
});

t.test(
  "the statement's text: the policies' fixed states as constants, the event's id alone for JavaScript",
  async (t) => {
    const detail = await read(`/v1/events/${event.id}`);
    t.equal(detail.statements.length, 1);
    const [text] = detail.statements;
    t.match(text, /"events"\."state" = 'published'/, 'the published state is in the text, so the kept plan knows it');
    t.match(text, /"events"\."id" as "id"/, "the event's id comes back for the self link");
    // The event's policy reads no row (`read()` takes none): no column of it beyond the id comes back as a row member.
    t.notMatch(text, /as "ownerDescription"/, 'no other column of the row');
    const anonymous = await read(sessions);
    t.match(
      anonymous.statements[0],
      /"sessions"\."state" in \('accepted', 'confirmed'\)/,
      'the public session states too',
    );
  },
);

t.test('a link to the parent of a related read names it as a lookup would', async (t) => {
  const res = await read(`/v1/events/${event.id}/sessions`);
  t.ok(res.body.data.length > 0);
  for (const s of res.body.data)
    t.strictSame(s.relationships.event.data, { type: 'event', id: event.id }, `session ${s.id} links to its event`);
  const track = await create(app, cast.owner.token, 'tracks', 'track', { name: 'Main', color: '#112233' }, of);
  const tracks = await read(`/v1/events/${event.id}/tracks`);
  t.strictSame(
    tracks.body.data.map((x: { id: string; relationships: { event: { data: unknown } } }) => [
      x.id,
      x.relationships.event.data,
    ]),
    [[track, { type: 'event', id: event.id }]],
  );
});

t.test(
  "a page's limit is a constant (its size rounded up to a step) and the page is cut to the exact size",
  async (t) => {
    const path = `/v1/events/${event.id}/sessions?sort=id`;
    const all = (await read(path, cast.owner.token)).body.data.map((s: { id: string }) => s.id);
    t.equal(all.length, 2, 'the owner sees both sessions');
    const two = await read(`${path}&page[size]=2`, cast.owner.token);
    t.match(two.statements.at(-1), /limit 10 offset 0/, 'a size of 2 reads at most 10 rows');
    t.strictSame(
      two.body.data.map((s: { id: string }) => s.id),
      all,
      'and answers 2',
    );
    const first = await read(`${path}&page[size]=1`, cast.owner.token);
    t.match(first.statements.at(-1), /limit 1 offset 0/);
    t.strictSame(
      first.body.data.map((s: { id: string }) => s.id),
      [all[0]],
    );
    const second = await read(`${path}&page[size]=1&page[number]=2`, cast.owner.token);
    t.match(second.statements.at(-1), /limit 1 offset \$\d+/, 'the offset of a later page is a parameter');
    t.strictSame(
      second.body.data.map((s: { id: string }) => s.id),
      [all[1]],
    );
    t.equal(second.body.meta.count, 2);
  },
);

t.test('constant() takes the fixed words of rules only, never text that could end the literal', async (t) => {
  const { constant } = await import('../../src/jsonapi/index.js');
  t.doesNotThrow(() => constant('track_organizer'));
  t.throws(() => constant("x' or 'a'='a"), /not a fixed word/);
  t.throws(() => constant(''), /not a fixed word/);
});
