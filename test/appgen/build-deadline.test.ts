/**
 * The deadline of one app build (APPGEN_TIMEOUT_SECONDS, here its least, 10 s, below the 20 s a
 * single fetch may take): an endpoint that never answers a list, and one that sends the event's
 * document a byte at a time without end, each end their build FAILED once the deadline passed
 * (not before), the message naming the URL that did not answer in time, and the requester mailed
 * the build log.
 */
import type { ServerResponse } from 'node:http';
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { failedBuild, json, startFake } from '../helpers/appgen.js';
import { startSmtp } from '../helpers/smtp.js';

const DEADLINE_S = 10;
const event = {
  data: { type: 'event', id: '1', attributes: { name: 'Late', 'starts-at': '2030-01-01T10:00:00Z', timezone: 'UTC' } },
};

t.test('a build that reaches its deadline ends FAILED, mailing the log', async (t) => {
  /** Responses held open: ended with the server at teardown (the build gives them up first). */
  const open: ServerResponse[] = [];
  const fake = await startFake(t, (request, response) => {
    const path = new URL(request.url!, 'http://x').pathname;
    if (path === '/v1/events/hang') json(response, event);
    // The sessions list never answers.
    else if (path === '/v1/events/hang/sessions') open.push(response);
    else if (path === '/v1/events/drip') {
      // Headers at once, then a space every 200 ms (valid JSON whitespace) without end.
      response.writeHead(200, { 'content-type': 'application/vnd.api+json' });
      response.write('{"data":');
      const timer = setInterval(() => response.write(' '), 200);
      response.on('close', () => clearInterval(timer));
      open.push(response);
    } else json(response, { data: [] });
  });
  t.teardown(() => open.forEach((response) => response.destroy()));
  const smtp = await startSmtp(t);
  const { app } = await buildTestApp(t, {
    ROLE: 'all',
    SMTP_URL: smtp.url,
    FETCH_ALLOW_PRIVATE: 'true',
    APPGEN_TIMEOUT_SECONDS: String(DEADLINE_S),
  });
  const hang = `${fake.url}/v1/events/hang`;
  const drip = `${fake.url}/v1/events/drip`;
  const sessionsUrl = `${hang}/sessions?${new URLSearchParams({ 'page[size]': '100', 'page[number]': '1', include: 'speakers,track,microlocation' })}`;

  /** The build (run side by side with the other), its message and steps, and how long it ran by its own log. */
  const timed = async (name: string, endpoint: string) => {
    const result = await failedBuild(t, app, smtp, name, endpoint);
    const at = (line: string) => Date.parse(line.slice(0, line.indexOf(' ')));
    return { ...result, seconds: (at(result.lines.at(-1)!) - at(result.lines[0]!)) / 1000 };
  };
  const [silent, dripping] = await Promise.all([timed('Silent list', hang), timed('Dripping event', drip)]);

  const expected = (url: string) => `The build took longer than ${DEADLINE_S} seconds (at ${url})`;
  t.equal(silent.message, expected(sessionsUrl), 'the message names the deadline and the URL');
  t.strictSame(silent.steps.slice(1), [
    `Reading the event at ${hang}`,
    'Reading sessions (page 1)',
    `The build failed: ${silent.message}`,
  ]);
  t.ok(
    silent.seconds >= DEADLINE_S - 0.5,
    `not before the deadline (${silent.seconds} s from its first log line to its last)`,
  );

  t.equal(dripping.message, expected(drip), 'a server that keeps sending is cut at the deadline too');
  t.strictSame(dripping.steps.slice(1), [`Reading the event at ${drip}`, `The build failed: ${dripping.message}`]);
  t.ok(
    dripping.seconds >= DEADLINE_S - 0.5,
    `not before the deadline (${dripping.seconds} s from its first log line to its last)`,
  );

  t.strictSame(
    fake.requests.map((r) => r.split('?')[0]).sort(),
    ['/v1/events/drip', '/v1/events/hang', '/v1/events/hang/sessions'],
    'nothing read after the URL that did not answer',
  );
});
