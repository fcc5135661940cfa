// Whose address a request counts as: the socket's, as the door records it,
// and X-Forwarded-For only from trusted proxies, read from the right.
import { createServer, request as http, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installDoor } from '../http/door';
import { clientAddress, normalizeAddress, parseTrustedProxies, PEER_ADDRESS_HEADER } from './client-address';

function fromPeer(peer: string, forwardedFor?: string): Headers {
  const headers = new Headers({ [PEER_ADDRESS_HEADER]: peer });
  if (forwardedFor !== undefined) headers.set('x-forwarded-for', forwardedFor);
  return headers;
}

describe('client address', () => {
  beforeAll(() => installDoor());

  it('spells each address one way', () => {
    expect(normalizeAddress('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(normalizeAddress(' 203.0.113.7:5123 ')).toBe('203.0.113.7');
    expect(normalizeAddress('[2001:DB8::1]:443')).toBe('2001:db8::1');
    expect(normalizeAddress('2001:db8::1')).toBe('2001:db8::1');
    expect(normalizeAddress('unknown')).toBeNull();
    expect(normalizeAddress('1.2.3.4.5')).toBeNull();
  });

  it('takes the socket’s address and ignores X-Forwarded-For when no proxy is trusted', () => {
    const none = parseTrustedProxies(undefined);
    expect(clientAddress(fromPeer('198.51.100.2', '127.0.0.1'), none)).toBe('198.51.100.2');
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', () => {
    const trusted = parseTrustedProxies('10.0.0.0/8');
    expect(clientAddress(fromPeer('198.51.100.2', '10.1.1.1, 127.0.0.1'), trusted)).toBe('198.51.100.2');
  });

  it('takes the right-most forwarded hop that is not a trusted proxy', () => {
    const trusted = parseTrustedProxies('10.0.0.0/8, fd00::/8 192.0.2.1');
    // The client claimed 127.0.0.1; the outer proxy appended the client's real address, the inner one the outer proxy's.
    expect(clientAddress(fromPeer('10.0.0.5', '127.0.0.1, 203.0.113.7, 192.0.2.1'), trusted)).toBe('203.0.113.7');
    expect(clientAddress(fromPeer('fd00::5', '203.0.113.8'), trusted)).toBe('203.0.113.8');
    expect(clientAddress(fromPeer('::ffff:10.0.0.5', '203.0.113.9'), trusted)).toBe('203.0.113.9');
  });

  it('stops at the last trusted hop when the next one is not an address, or when there is none', () => {
    const trusted = parseTrustedProxies('10.0.0.0/8');
    expect(clientAddress(fromPeer('10.0.0.5', 'garbage, 10.0.0.9'), trusted)).toBe('10.0.0.9');
    expect(clientAddress(fromPeer('10.0.0.5'), trusted)).toBe('10.0.0.5');
  });

  it('refuses a list entry that is neither an address nor a range', () => {
    for (const bad of ['10.0.0.0/33', 'proxy.internal', '10.0.0.0/8/1', '::1/129', '10.0.0.0/x']) {
      expect(() => parseTrustedProxies(bad), bad).toThrow(/not an IP address or CIDR range/);
    }
    expect(parseTrustedProxies('::1, 127.0.0.0/8').has('127.9.9.9')).toBe(true);
  });

  describe('through the door', () => {
    let server: Server;
    let port: number;

    beforeAll(async () => {
      server = createServer((request, response) => {
        const headers = new Headers(request.headers as Record<string, string>);
        response.end(clientAddress(headers, parseTrustedProxies('127.0.0.3')));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    const ask = (from: string, headers: Record<string, string>) =>
      new Promise<string>((resolve, reject) => {
        const sent = http({ host: '127.0.0.1', port, path: '/', headers, localAddress: from }, (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (body += chunk));
          response.on('end', () => resolve(body));
        });
        sent.on('error', reject);
        sent.end();
      });

    it('overwrites a peer address the client sent with the socket’s', async () => {
      expect(await ask('127.0.0.2', { [PEER_ADDRESS_HEADER]: '192.0.2.77', 'x-forwarded-for': '192.0.2.78' })).toBe('127.0.0.2');
      expect(await ask('127.0.0.3', { [PEER_ADDRESS_HEADER]: '192.0.2.77', 'x-forwarded-for': '192.0.2.78' })).toBe('192.0.2.78');
    });
  });
});
