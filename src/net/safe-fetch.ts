import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { readAtMost } from '../../plugins/read-at-most.js';

/** What a fetch of a URL that users supplied may do. */
export interface FetchLimits {
  /** Let it reach private, loopback and other non-public addresses (tests, closed networks). */
  allowPrivate: boolean;
  maxBytes: number;
  timeoutMs: number;
}

/** A fetch that was refused or failed; the message is safe to show to whoever gave the URL. */
export class FetchError extends Error {
  constructor(
    message: string,
    /** Which limit ended it, when one did. */
    readonly limit?: 'size' | 'time',
  ) {
    super(message);
  }
}

const MAX_REDIRECTS = 3;

/** Whether an address is a public unicast one (not loopback, private, link-local, multicast, ...). */
export function isPublicAddress(address: string): boolean {
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    // The deprecated IPv4-compatible form ::a.b.c.d: no public address looks like it.
    if (v6.parts.slice(0, 6).every((p) => p === 0)) return false;
    if (v6.isIPv4MappedAddress()) ip = v6.toIPv4Address();
  }
  return ip.range() === 'unicast';
}

/** DNS resolution that refuses names with any non-public address; the connection uses the checked address. */
const guardedLookup =
  (allowPrivate: boolean): LookupFunction =>
  (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, family: options.family }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const refused = allowPrivate ? undefined : addresses.find((a) => !isPublicAddress(a.address));
      if (refused || addresses.length === 0) {
        return callback(new FetchError(`${hostname} resolves to a non-public address`), '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };

/** The URL as a checked target: http(s) only, no credentials, no non-public address literal. */
function target(raw: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FetchError('not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new FetchError(`${url.protocol} URLs are not fetched`);
  if (url.username || url.password) throw new FetchError('URLs with credentials are not fetched');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !allowPrivate && !isPublicAddress(host)) throw new FetchError(`${host} is not a public address`);
  return url;
}

function get(url: URL, limits: FetchLimits, signal: AbortSignal): Promise<IncomingMessage> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.get(url, {
      lookup: guardedLookup(limits.allowPrivate),
      signal,
      headers: { 'user-agent': 'open-event-server', accept: '*/*' },
    });
    request.on('response', resolve);
    request.on('error', reject);
  });
}

function collect(response: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const tooLarge = () => new FetchError(`the file is larger than ${maxBytes} bytes`, 'size');
  if (Number(response.headers['content-length']) > maxBytes) {
    response.destroy();
    throw tooLarge();
  }
  return readAtMost(response, maxBytes, tooLarge);
}

/**
 * GET of a URL a user supplied, safe against server-side request forgery: http and https only,
 * every address checked (literal, resolved and after each redirect) to be public unless allowed,
 * the connection made to the address checked, a size limit while reading and a time limit overall.
 */
export async function safeFetch(raw: string, limits: FetchLimits): Promise<{ body: Buffer; contentType?: string }> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let url = target(raw, limits.allowPrivate);
  try {
    for (let hop = 0; ; hop++) {
      const response = await get(url, limits, signal);
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400 && response.headers.location) {
        response.resume();
        if (hop === MAX_REDIRECTS) throw new FetchError('too many redirects');
        url = target(new URL(response.headers.location, url).href, limits.allowPrivate);
        continue;
      }
      if (status !== 200) {
        response.resume();
        throw new FetchError(`the server answered ${status}`);
      }
      return { body: await collect(response, limits.maxBytes), contentType: response.headers['content-type'] };
    }
  } catch (err) {
    if (err instanceof FetchError) throw err;
    if (signal.aborted) throw new FetchError(`no answer within ${limits.timeoutMs / 1000} seconds`, 'time');
    const cause = err as NodeJS.ErrnoException;
    throw new FetchError(`the file could not be fetched (${cause.code ?? cause.message})`);
  }
}
