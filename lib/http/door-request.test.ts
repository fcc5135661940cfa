// The request the server's door hands an /api handler: what a web Request would give it, made only when asked.
import { createServer, request as http, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { headersOf } from './api-door';
import { readBodyBytes, readJson } from './body';
import { DoorRequest } from './door-request';
import { requestUrl } from './request-url';

let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** A server that makes each request a DoorRequest and hands it to `handle`, which answers or not. */
async function serve(handle: (request: DoorRequest, incoming: IncomingMessage, out: ServerResponse) => void): Promise<number> {
  server = createServer((incoming, out) => {
    const url = new URL(incoming.url ?? '/', `http://${incoming.headers.host}`);
    handle(new DoorRequest(incoming, out, url, headersOf(incoming)), incoming, out);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

function send(port: number, method: string, body?: string) {
  const sent = http({ host: '127.0.0.1', port, method, path: '/api/apps/a?limit=2', headers: { 'X-Test': 'yes' } });
  sent.on('error', () => undefined);
  sent.end(body);
  return sent;
}

describe('DoorRequest', () => {
  it('reads as a web Request of the same request does', async () => {
    const read = new Promise<Record<string, unknown>>((resolve) => {
      void serve((request, _incoming, out) => {
        resolve({ method: request.method, url: request.url, test: request.headers.get('x-test'), body: request.body });
        out.end();
      }).then((port) => send(port, 'GET'));
    });
    const seen = await read;
    expect(seen).toMatchObject({ method: 'GET', test: 'yes', body: null });
    expect(seen.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/apps\/a\?limit=2$/);
  });

  it('takes the URL the door parsed, not a parse of its own', async () => {
    const same = new Promise<boolean>((resolve) => {
      server = createServer((incoming, out) => {
        const url = new URL('http://127.0.0.1/api/apps/a');
        resolve(requestUrl(new DoorRequest(incoming, out, url, headersOf(incoming))) === url);
        out.end();
      });
      server.listen(0, '127.0.0.1', () => send((server?.address() as AddressInfo).port, 'GET'));
    });
    expect(await same).toBe(true);
  });

  it('streams a body it was not handed whole from the socket', async () => {
    const body = new Promise<unknown>((resolve) => {
      void serve((request, _incoming, out) => {
        void readJson(request).then((value) => {
          resolve(value);
          out.end();
        });
      }).then((port) => send(port, 'POST', '{"a": [1, 2]}'));
    });
    expect(await body).toEqual({ a: [1, 2] });
  });

  it('gives a body it was handed whole to readBodyBytes as it is, and as a stream to anything else', async () => {
    const whole = new TextEncoder().encode('{"b": true}');
    const read = new Promise<[Uint8Array, string]>((resolve) => {
      server = createServer((incoming, out) => {
        const request = new DoorRequest(incoming, out, new URL('http://localhost/api'), headersOf(incoming), whole);
        void readBodyBytes(request).then(async (bytes) => {
          resolve([bytes, await new Response(request.body).text()]);
          out.end();
        });
      });
      server.listen(0, '127.0.0.1', () => send((server?.address() as AddressInfo).port, 'POST', 'ignored'));
    });
    const [bytes, text] = await read;
    expect(bytes).toBe(whole);
    expect(text).toBe('{"b": true}');
  });

  it('aborts its signal when the client goes away unanswered, and only then', async () => {
    const signals: AbortSignal[] = [];
    const port = await serve((request, incoming, out) => {
      signals.push(request.signal);
      if (incoming.headers['x-answer'] === undefined) return;
      out.end('done');
    });
    const answered = http({ host: '127.0.0.1', port, path: '/api/x', headers: { 'x-answer': '1' } });
    answered.end();
    const [response] = (await once(answered, 'response')) as [IncomingMessage];
    response.resume();
    await once(response, 'end');
    const left = send(port, 'GET');
    await expect.poll(() => signals.length).toBe(2);
    left.destroy();
    await expect.poll(() => signals[1]?.aborted).toBe(true);
    expect(signals[0]?.aborted).toBe(false);
  });
});
