/**
 * susi_skill_cms src/components/SkillCreator/SkillViews/ConversationView.js: the editor previews the
 * skill being edited by asking `/susi/chat.json` each example with the skill's text as `instant`
 * (`fetchConversationResponse({q: encodeURIComponent(query), instant: encodeURIComponent(code)})`,
 * then ajax.get: no further encoding, the cookie's token first) and shows
 * `payload.answers[0].actions[0].expression`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { FALLBACK_ANSWERS } from '../../src/assistant/chat.js';
import { buildTestApp } from '../helpers/app.js';
import { cmsGet, commitDirectly } from '../helpers/susi-clients.js';
import { seedUser } from '../helpers/users.js';

const CODE = [
  '::name Greeter',
  '::author Ada',
  '::image images/greeter.png',
  '!example:hello there',
  '',
  'hello *|hi *',
  'Hello $1$!|Hi $1$!',
  '',
  '# a comment',
  'what is your name?',
  'I am Greeter.',
  '',
  'what is your name, really',
  'Still Greeter.',
  '',
].join('\n');

t.test(
  'susi_skill_cms src/components/SkillCreator/SkillViews/ConversationView.js: chat preview of a skill being edited',
  async (t) => {
    const base = await mkdtemp(join(tmpdir(), 'oe-chat-'));
    t.teardown(() => rm(base, { recursive: true, force: true }));
    const repo = join(base, 'repo');
    // The contract is checked once openapi/openapi.json is regenerated with the routes of this branch.
    const { app } = await buildTestApp(t, { SKILL_REPO_DIR: repo });
    const user = await seedUser(app);
    const ask = async (q: string, instant?: string, token: string | undefined = user.token) => {
      const payload: Record<string, string> = { q: encodeURIComponent(q) };
      if (instant !== undefined) payload.instant = encodeURIComponent(instant);
      const res = await app.inject({ method: 'GET', url: cmsGet('/susi/chat.json', payload, token) });
      return { status: res.statusCode, body: res.json() };
    };
    const expression = (body: { answers: { actions: { expression: string }[] }[] }) =>
      body.answers[0]?.actions[0]?.expression;

    const before = Date.now();
    const hello = await ask('hello there', CODE);
    t.equal(hello.status, 200);
    t.ok(['Hello there!', 'Hi there!'].includes(expression(hello.body)), `$1$ substituted: ${expression(hello.body)}`);
    const body = hello.body;
    t.equal(body.query, 'hello there');
    t.equal(Buffer.from(body.client_id, 'base64').toString(), `email:${user.email}`);
    t.ok(Date.parse(body.query_date) >= before - 1000 && Date.parse(body.answer_date) >= Date.parse(body.query_date));
    t.type(body.answer_time, 'number');
    t.equal(body.answers.length, 1);
    t.same(body.answers[0].data, [{ answer: expression(body), query: 'hello there' }]);
    t.same(body.answers[0].metadata, { count: 1 });
    t.same(body.answers[0].actions, [{ type: 'answer', expression: expression(body) }]);
    t.match(body.session, { identity: { type: 'email', name: user.email, anonymous: false } });

    t.equal(
      expression((await ask('What is your name', CODE)).body),
      'I am Greeter.',
      'case and a missing question mark do not matter',
    );
    t.equal(
      expression((await ask('what is your name, really?', CODE)).body),
      'Still Greeter.',
      'the more literal pattern wins',
    );
    t.ok(
      ['Hello Bob!', 'Hi Bob!'].includes(expression((await ask('hi  Bob ', CODE)).body)),
      'spaces collapse; the wildcard takes the rest',
    );
    const unknown = await ask('how tall is mount everest', CODE);
    t.ok(FALLBACK_ANSWERS.includes(expression(unknown.body)), "no match: the reference's catch-all answer");
    // A text with characters that need encoding travels intact.
    const special = '::name Symbols\n\nwhat is 1+1 & 2%\nIt is 2 & 2% = 0.02!\n';
    t.equal(expression((await ask('what is 1+1 & 2%', special)).body), 'It is 2 & 2% = 0.02!');

    t.test('skills of the repository answer too, and each answer counts one usage', async (t) => {
      commitDirectly(repo, {
        'models/general/Knowledge/en/dice.txt': '::name Dice\nroll a die|throw a die\nYou rolled a 4.\n',
      });
      const usage = async () =>
        (await app.sql<{ n: number }[]>`select coalesce(sum(count), 0)::int as n from skill_usage`)[0]!.n;
      t.equal(await usage(), 0);
      // getSusiPreviewReply(message): ajax.get(url, {q: message}) — not encoded by the editor.
      const res = await app.inject({ method: 'GET', url: cmsGet('/susi/chat.json', { q: 'roll a die' }, user.token) });
      t.equal(expression(res.json()), 'You rolled a 4.');
      t.equal(await usage(), 1);
      t.equal(
        expression((await ask('throw a die', undefined, undefined)).body),
        'You rolled a 4.',
        'anonymous callers too',
      );
      t.equal(await usage(), 2);
      t.equal(
        expression((await ask('roll a die', CODE)).body),
        'You rolled a 4.',
        'instant first, then the repository',
      );
      t.equal(await usage(), 3);
      await ask('hello there', CODE);
      t.equal(await usage(), 3, 'an instant answer is no usage of a stored skill');
      const de = await app.inject({ method: 'GET', url: '/susi/chat.json?q=roll%20a%20die&language=de' });
      t.ok(FALLBACK_ANSWERS.includes(expression(de.json())), 'another language: not that skill');
    });

    t.test('bad input', async (t) => {
      for (const url of [
        '/susi/chat.json',
        '/susi/chat.json?q=',
        '/susi/chat.json?q=%20%20',
        '/susi/chat.json?q=undefined&instant=undefined',
      ]) {
        const res = await app.inject({ method: 'GET', url });
        t.equal(res.statusCode, 200, url);
        t.equal(res.json().accepted, true);
      }
      t.same((await app.inject({ method: 'GET', url: '/susi/chat.json' })).json().answers, [], 'no query: no answer');
      const noRules = await ask('hello there', 'just one line');
      t.ok(FALLBACK_ANSWERS.includes(expression(noRules.body)));
      const regexText = '::name R\n\n(a+)+$|[x\nmatched literally\n';
      t.equal(
        expression((await ask('(a+)+$', regexText)).body),
        'matched literally',
        'patterns are literal text, not regular expressions',
      );
      t.ok(FALLBACK_ANSWERS.includes(expression((await ask('aaaa', regexText)).body)));
      // Many wildcards against a long query, and long runs of punctuation (which an anchored regular
      // expression trims in quadratic time), cost no backtracking: a slow match would hang this test.
      const stars = await ask('a'.repeat(990), `::name S\n\n${'a*'.repeat(60)}b\nnever\n`);
      t.ok(FALLBACK_ANSWERS.includes(expression(stars.body)));
      const punctuation = `::name P\n\n${'. '.repeat(30_000)}x\nnever\n`;
      const form = { 'content-type': 'application/x-www-form-urlencoded' };
      const long = await app.inject({
        method: 'POST',
        url: '/susi/chat.json',
        headers: form,
        payload: new URLSearchParams({ q: `x${'.'.repeat(990)}`, instant: punctuation }).toString(),
      });
      t.ok(FALLBACK_ANSWERS.includes(expression(long.json())), 'a hostile text is answered at once');
      const tooLong = await app.inject({
        method: 'POST',
        url: '/susi/chat.json',
        headers: form,
        payload: new URLSearchParams({ q: 'x', instant: 'x\n'.repeat(40_000) }).toString(),
      });
      t.same(
        [tooLong.statusCode, tooLong.json().message],
        [400, 'The instant skill text is longer than 65536 characters'],
      );
      const odd = await app.inject({ method: 'GET', url: '/susi/chat.json?q=hi&timezoneOffset=abc&language=../../x' });
      t.equal(odd.statusCode, 200);
      t.ok(FALLBACK_ANSWERS.includes(expression(odd.json())));
      const jsonp = await app.inject({ method: 'GET', url: '/susi/chat.json?q=hi&callback=cb' });
      t.match(jsonp.body, /^cb\(\{"accepted":true,"query":"hi"/);
      const twice = await app.inject({ method: 'GET', url: '/susi/chat.json?q=a&q=b' });
      t.equal(twice.statusCode, 400);
      const post = await app.inject({
        method: 'POST',
        url: '/susi/chat.json',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ q: 'hello you', instant: CODE }).toString(),
      });
      t.ok(['Hello you!', 'Hi you!'].includes(expression(post.json())), 'a long skill text may be posted');
    });
  },
);
