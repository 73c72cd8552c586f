/**
 * The SSRF guard: which addresses count as public, which URLs are refused before any connection
 * (schemes, credentials, private and loopback literals in every spelling, names resolving to them),
 * and, with private addresses allowed (tests, closed networks), redirects (re-checked, at most 3),
 * status, size limits (declared and streamed) and the time limit.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { FetchError, isPublicAddress, safeFetch, type FetchLimits } from '../../src/net/safe-fetch.js';

const PRIVATE: FetchLimits = { allowPrivate: false, maxBytes: 1_000_000, timeoutMs: 30_000 };
const OPEN: FetchLimits = { ...PRIVATE, allowPrivate: true };

/** A local server answering by path; it records every request it receives. */
async function serve(t: Test, routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void>) {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(req.url!);
    const route = routes[req.url!.split('?')[0]!];
    if (route) route(req, res);
    else res.writeHead(404).end('not here');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { port: (server.address() as AddressInfo).port, seen };
}

/** safeFetch must fail with a FetchError whose message matches. */
async function refused(t: Test, url: string, limits: FetchLimits, message: RegExp) {
  const err = await safeFetch(url, limits).then(
    () => undefined,
    (e: unknown) => e,
  );
  t.ok(err instanceof FetchError, `${url}: a FetchError`);
  t.match((err as Error | undefined)?.message, message, `${url}: ${String(message)}`);
}

t.test('isPublicAddress: public unicast only', async (t) => {
  for (const ip of ['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700::1111', '2001:4860:4860::8888']) {
    t.equal(isPublicAddress(ip), true, `${ip} is public`);
  }
  const others = [
    '127.0.0.1',
    '127.255.255.254',
    '0.0.0.0',
    '10.0.0.1',
    '10.255.255.255',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '64:ff9b::7f00:1',
    '2001:db8::1',
    '::7f00:1',
    '::a00:1',
  ];
  for (const ip of others) t.equal(isPublicAddress(ip), false, `${ip} is not public`);
});

t.test('refused before any connection when private addresses are not allowed', async (t) => {
  const { port, seen } = await serve(t, { '/image.png': (_req, res) => res.end('data') });
  const literals: [string, RegExp][] = [
    [`http://127.0.0.1:${port}/image.png`, /127\.0\.0\.1 is not a public address/],
    [`http://127.1:${port}/image.png`, /127\.0\.0\.1 is not a public address/],
    [`http://0x7f000001:${port}/image.png`, /127\.0\.0\.1 is not a public address/],
    [`http://2130706433:${port}/image.png`, /127\.0\.0\.1 is not a public address/],
    [`http://0177.0.0.1:${port}/image.png`, /127\.0\.0\.1 is not a public address/],
    [`http://[::1]:${port}/image.png`, /::1 is not a public address/],
    [`http://[::ffff:127.0.0.1]:${port}/image.png`, /is not a public address/],
    [`http://0.0.0.0:${port}/image.png`, /0\.0\.0\.0 is not a public address/],
    [`http://10.1.2.3:${port}/`, /10\.1\.2\.3 is not a public address/],
    [`http://172.16.5.4:${port}/`, /172\.16\.5\.4 is not a public address/],
    [`http://192.168.0.10:${port}/`, /192\.168\.0\.10 is not a public address/],
    ['http://169.254.169.254/latest/meta-data/', /169\.254\.169\.254 is not a public address/],
    ['https://[fc00::1]/', /fc00::1 is not a public address/],
    ['http://[fe80::1]/', /fe80::1 is not a public address/],
    [`http://localhost:${port}/image.png`, /localhost resolves to a non-public address/],
    [`http://LocalHost:${port}/image.png`, /^localhost resolves to a non-public address$/],
  ];
  for (const [url, message] of literals) await refused(t, url, PRIVATE, message);
  t.strictSame(seen, [], 'the local server received no request at all');
});

t.test(
  'schemes other than http(s), credentials and junk are refused, even with private addresses allowed',
  async (t) => {
    const { port, seen } = await serve(t, { '/image.png': (_req, res) => res.end('data') });
    for (const limits of [PRIVATE, OPEN]) {
      await refused(t, 'file:///etc/passwd', limits, /^file: URLs are not fetched$/);
      await refused(t, `ftp://127.0.0.1:${port}/image.png`, limits, /^ftp: URLs are not fetched$/);
      await refused(t, 'data:image/png;base64,iVBORw0KGgo=', limits, /^data: URLs are not fetched$/);
      await refused(t, `gopher://127.0.0.1:${port}/_GET`, limits, /^gopher: URLs are not fetched$/);
      await refused(
        t,
        `http://user:secret@127.0.0.1:${port}/image.png`,
        limits,
        /^URLs with credentials are not fetched$/,
      );
      await refused(t, `http://user@127.0.0.1:${port}/image.png`, limits, /^URLs with credentials are not fetched$/);
      await refused(t, 'not a url', limits, /^not a valid URL$/);
      await refused(t, '/relative/path.png', limits, /^not a valid URL$/);
    }
    t.strictSame(seen, [], 'no request reached the server');
  },
);

t.test('allowed private addresses: the body, the content type, redirects up to three', async (t) => {
  const redirect =
    (to: string, status = 302) =>
    (_req: IncomingMessage, res: ServerResponse) =>
      res.writeHead(status, { location: to }).end();
  const { port, seen } = await serve(t, {
    '/image.png': (req, res) => {
      res
        .writeHead(200, { 'content-type': 'image/png', 'x-ua': req.headers['user-agent'] ?? '' })
        .end(Buffer.from([1, 2, 3, 4]));
    },
    '/r1': redirect('/image.png', 301),
    '/r3': redirect('/r2', 307),
    '/r2': redirect('/r1b'),
    '/r1b': redirect('/image.png', 308),
    '/r4': redirect('/r3', 303),
    '/to-file': redirect('file:///etc/passwd'),
    '/to-credentials': (req, res) => redirect(`http://user:pw@${req.headers.host}/image.png`)(req, res),
    '/to-ftp': (req, res) => redirect(`ftp://${req.headers.host}/image.png`)(req, res),
    '/not-found': (_req, res) => res.writeHead(404).end('missing'),
    '/error': (_req, res) => res.writeHead(500).end('boom'),
    '/no-location': (_req, res) => res.writeHead(302).end(),
    '/created': (_req, res) => res.writeHead(201).end('made'),
  });
  const base = `http://127.0.0.1:${port}`;

  const direct = await safeFetch(`${base}/image.png`, OPEN);
  t.strictSame([...direct.body], [1, 2, 3, 4], 'the body');
  t.equal(direct.contentType, 'image/png', 'the content type');
  t.strictSame(
    await safeFetch(`http://localhost:${port}/image.png`, OPEN).then((r) => [...r.body]),
    [1, 2, 3, 4],
    'localhost too',
  );

  seen.length = 0;
  t.strictSame([...(await safeFetch(`${base}/r1`, OPEN)).body], [1, 2, 3, 4], 'one redirect followed');
  t.strictSame([...(await safeFetch(`${base}/r3`, OPEN)).body], [1, 2, 3, 4], 'three redirects followed');
  t.strictSame(seen, ['/r1', '/image.png', '/r3', '/r2', '/r1b', '/image.png']);

  seen.length = 0;
  await refused(t, `${base}/r4`, OPEN, /^too many redirects$/);
  t.strictSame(seen, ['/r4', '/r3', '/r2', '/r1b'], 'the fourth redirect is not followed');

  seen.length = 0;
  await refused(t, `${base}/to-file`, OPEN, /^file: URLs are not fetched$/);
  await refused(t, `${base}/to-credentials`, OPEN, /^URLs with credentials are not fetched$/);
  await refused(t, `${base}/to-ftp`, OPEN, /^ftp: URLs are not fetched$/);
  t.strictSame(
    seen,
    ['/to-file', '/to-credentials', '/to-ftp'],
    'redirect targets are checked before they are requested',
  );

  await refused(t, `${base}/not-found`, OPEN, /^the server answered 404$/);
  await refused(t, `${base}/error`, OPEN, /^the server answered 500$/);
  await refused(t, `${base}/no-location`, OPEN, /^the server answered 302$/);
  await refused(t, `${base}/created`, OPEN, /^the server answered 201$/);
  await refused(t, `http://127.0.0.1:1/closed`, OPEN, /^the file could not be fetched \(ECONNREFUSED\)$/);
});

t.test('size limit: declared and streamed', async (t) => {
  let endlessSent = 0;
  let hungUp!: () => void;
  const endlessClosed = new Promise<void>((resolve) => (hungUp = resolve));
  const { port } = await serve(t, {
    '/declared': (_req, res) => res.writeHead(200, { 'content-length': '1001' }).end(Buffer.alloc(1001, 7)),
    '/exact': (_req, res) => res.writeHead(200, { 'content-length': '1000' }).end(Buffer.alloc(1000, 7)),
    '/chunked': (_req, res) => {
      // No content-length: the limit must be counted while reading.
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      let sent = 0;
      const more = () => {
        if (sent >= 5000 || res.destroyed) return res.end();
        sent += 500;
        res.write(Buffer.alloc(500, 1), () => setImmediate(more));
      };
      more();
    },
    '/endless': (_req, res) => {
      res.writeHead(200);
      res.on('close', hungUp);
      const more = () => {
        if (res.destroyed) return;
        endlessSent += 64 * 1024;
        res.write(Buffer.alloc(64 * 1024), () => setImmediate(more));
      };
      more();
    },
  });
  const limits = { ...OPEN, maxBytes: 1000 };
  const base = `http://127.0.0.1:${port}`;
  t.equal((await safeFetch(`${base}/exact`, limits)).body.length, 1000, 'exactly the limit is fetched');
  await refused(t, `${base}/declared`, limits, /^the file is larger than 1000 bytes$/);
  await refused(t, `${base}/chunked`, limits, /^the file is larger than 1000 bytes$/);
  t.equal(
    (await safeFetch(`${base}/chunked`, { ...OPEN, maxBytes: 5000 })).body.length,
    5000,
    'a chunked body within the limit',
  );
  await refused(t, `${base}/endless`, { ...OPEN, maxBytes: 1_000_000 }, /^the file is larger than 1000000 bytes$/);
  // The fetch hung up: the server stopped writing after the limit plus what the socket buffers hold.
  await endlessClosed;
  t.ok(endlessSent < 16_000_000, `an endless body is cut off at the limit (the server wrote ${endlessSent} bytes)`);
});

t.test('time limit: a server that never answers, one that stalls mid-body', async (t) => {
  const { port } = await serve(t, {
    '/silent': () => {},
    '/stall': (_req, res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write(Buffer.alloc(10));
    },
  });
  for (const path of ['/silent', '/stall']) {
    const started = performance.now();
    await refused(t, `http://127.0.0.1:${port}${path}`, { ...OPEN, timeoutMs: 300 }, /^no answer within 0\.3 seconds$/);
    const took = performance.now() - started;
    t.ok(took >= 280, `${path}: gave up at the time limit, not before (${Math.round(took)} ms)`);
  }
});
