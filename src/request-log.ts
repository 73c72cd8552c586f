import type { FastifyRequest, FastifyServerOptions } from 'fastify';

/** Query parameters whose values are secrets: the assistant takes the token as `access_token`. */
const SECRET = /token|password|secret/i;

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/** The URL as sent, but with the value of every secret query parameter replaced. */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const pairs = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const name = pair.split('=', 1)[0]!;
      return SECRET.test(decodedName(name)) ? `${name}=[REDACTED]` : pair;
    });
  return `${url.slice(0, at + 1)}${pairs.join('&')}`;
}

/** Fastify's own request serializer, with secrets out of the URL; headers (Authorization) are never logged. */
function request(req: Pick<FastifyRequest, 'method' | 'url' | 'headers' | 'host' | 'ip' | 'socket'>) {
  return {
    method: req.method,
    url: redactUrl(req.url),
    version: req.headers?.['accept-version'] as string | undefined,
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

type LoggerOption = FastifyServerOptions['logger'];

/**
 * The logger options of the app: the caller's (or the configured level) with the request serializer
 * above, whatever request serializer the caller gave, since request logs go wherever logs go.
 */
export function loggerOptions(given: LoggerOption, level: string): LoggerOption {
  if (given === false) return false;
  const options = given === undefined || given === true ? { level } : given;
  return { ...options, serializers: { ...options.serializers, req: request } };
}
