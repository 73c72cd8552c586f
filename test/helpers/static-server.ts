import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import mime from 'mime-types';
import type { Test } from 'tap';

export interface StaticServer {
  url: string;
  /** Stops serving (the network to the app is cut); open connections are dropped. */
  close(): Promise<void>;
}

/** Serves a folder over HTTP on loopback, the way any static host would (`/` is `index.html`), until the test ends. */
export async function serveFolder(t: Test, root: string): Promise<StaticServer> {
  const server: Server = createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url!, 'http://x').pathname);
    const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path));
    const found = file.startsWith(root + sep) ? await stat(file).catch(() => undefined) : undefined;
    if (!found?.isFile()) return void response.writeHead(404).end('not found');
    response.writeHead(200, {
      'content-type': mime.contentType(extname(file)) || 'application/octet-stream',
      'content-length': found.size,
    });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  t.teardown(close);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close };
}
