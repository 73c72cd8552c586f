import ipaddr from 'ipaddr.js';

/**
 * The mailbox an address reaches, as the mail limits count it: lower-cased, without a +tag (which
 * lands in the same inbox), so that `Victim+1@x`, `victim+2@x` ... are one recipient.
 */
export const mailboxOf = (email: string) =>
  email
    .trim()
    .toLowerCase()
    .replace(/\+[^@]*@/, '@');

/**
 * The client the per-address limits count: an IPv4 address, or the /64 of an IPv6 one (what one
 * subscriber gets, so hopping addresses inside it is still one client). `request.ip` honours
 * TRUST_PROXY: only a trusted load balancer's X-Forwarded-For names another client (counted as the
 * balancer wrote it, should it be no address).
 */
export function clientOf(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip.slice(0, 100);
  const parsed = ipaddr.process(ip);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  return `${(parsed as ipaddr.IPv6).parts
    .slice(0, 4)
    .map((p) => p.toString(16))
    .join(':')}::/64`;
}
