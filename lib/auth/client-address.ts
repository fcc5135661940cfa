import { Server } from 'node:http';
import { BlockList, isIP } from 'node:net';

/**
 * The header the door (lib/http/door.ts) sets to the socket's peer address
 * on every request, replacing whatever a client sent under that name.
 */
export const PEER_ADDRESS_HEADER = 'x-statehouse-peer-address';

/** Set on the HTTP server prototype by the door; without it the peer header could come from the client. */
export const DOOR_INSTALLED = Symbol.for('statehouse.door');

export const UNKNOWN_ADDRESS = 'unknown';

/**
 * An address as one spelling: IPv4-mapped IPv6 as IPv4, without brackets
 * or a port (some proxies append `address:port`); null when it is not an
 * IP address at all.
 */
export function normalizeAddress(raw: string | null | undefined): string | null {
  let address = raw?.trim() ?? '';
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed) address = bracketed[1] ?? '';
  else if (/^[\d.]+:\d+$/.test(address)) address = address.slice(0, address.lastIndexOf(':'));
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) address = mapped[1] ?? '';
  return isIP(address) === 0 ? null : address.toLowerCase();
}

/** The proxies whose X-Forwarded-For is believed (STATEHOUSE_TRUSTED_PROXIES). */
export class TrustedProxies {
  private readonly list = new BlockList();

  /** `entries`: addresses and CIDR ranges; throws on one that is neither. */
  constructor(readonly entries: readonly string[]) {
    for (const entry of entries) {
      const [base = '', prefix, extra] = entry.split('/');
      const address = normalizeAddress(base);
      const family = address === null ? 0 : isIP(address);
      const bits = prefix === undefined ? (family === 4 ? 32 : 128) : Number(prefix);
      if (address === null || extra !== undefined || !/^\d+$/.test(prefix ?? '0') || bits > (family === 4 ? 32 : 128)) {
        throw new Error(`"${entry}" is not an IP address or CIDR range (such as 10.0.0.0/8 or fd00::/8).`);
      }
      this.list.addSubnet(address, bits, family === 4 ? 'ipv4' : 'ipv6');
    }
  }

  has(address: string): boolean {
    return this.entries.length > 0 && this.list.check(address, isIP(address) === 4 ? 'ipv4' : 'ipv6');
  }
}

/** STATEHOUSE_TRUSTED_PROXIES: addresses and CIDR ranges separated by commas or spaces. */
export function parseTrustedProxies(value: string | undefined): TrustedProxies {
  return new TrustedProxies((value ?? '').split(/[\s,]+/).filter(Boolean));
}

let warnedNoDoor = false;

/** The socket's address as the door recorded it; unknown when no door is installed to vouch for the header. */
function peerAddress(headers: Headers): string {
  if (!(DOOR_INSTALLED in Server.prototype)) {
    if (!warnedNoDoor) console.warn('No request door is installed (instrumentation.ts): client addresses are unknown.');
    warnedNoDoor = true;
    return UNKNOWN_ADDRESS;
  }
  return normalizeAddress(headers.get(PEER_ADDRESS_HEADER)) ?? UNKNOWN_ADDRESS;
}

/**
 * The address a request came from, for throttling: the socket's peer,
 * unless that is a trusted proxy; then X-Forwarded-For is read from the
 * right, each hop a trusted proxy appended, up to the first address that is
 * not a trusted proxy: the client. What lies left of it is whatever that
 * client claimed, and is never believed.
 */
export function clientAddress(headers: Headers, trusted: TrustedProxies): string {
  let client = peerAddress(headers);
  if (client === UNKNOWN_ADDRESS || !trusted.has(client)) return client;
  const hops = (headers.get('x-forwarded-for') ?? '').split(',');
  for (let index = hops.length - 1; index >= 0; index -= 1) {
    const hop = normalizeAddress(hops[index]);
    // Not an address: the trusted proxy passed on what its client wrote; the proxy is the last hop known.
    if (hop === null) break;
    client = hop;
    if (!trusted.has(hop)) break;
  }
  return client;
}
