// The door in front of Next, on a plain HTTP server whose handler stands for
// Next: what the door refuses never reaches it, and costs no memory.
import { createServer, request as http, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installDoor } from './door';

const BODY_BYTES = 11 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 'a');

interface Sent {
  status: number;
  body: string;
  allow?: string;
}

function send(port: number, method: string, headers: Record<string, string>, bytes: number): Promise<Sent> {
  return new Promise((resolve, reject) => {
    let written = 0;
    let done = false;
    const sent = http({ host: '127.0.0.1', port, method, path: '/api/apps', headers });
    sent.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => {
        done = true;
        resolve({ status: response.statusCode ?? 0, body, allow: response.headers.allow });
        sent.destroy();
      });
    });
    sent.on('error', (error) => {
      if (!done) reject(error);
    });
    const pump = () => {
      while (!done && written < bytes) {
        const chunk = CHUNK.subarray(0, Math.min(CHUNK.length, bytes - written));
        written += chunk.length;
        if (!sent.write(chunk)) return void sent.once('drain', pump);
      }
      if (!done) sent.end();
    };
    pump();
  });
}

describe('the door before Next', () => {
  let server: Server;
  let port: number;
  const reached: string[] = [];

  beforeAll(async () => {
    process.env.STATEHOUSE_AUTH = 'protected';
    installDoor();
    server = createServer((request, response) => {
      reached.push(`${request.method} ${request.headers['content-length'] ?? 'chunked'}`);
      request.resume();
      request.on('end', () => response.end('reached'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    delete process.env.STATEHOUSE_AUTH;
    await new Promise((resolve) => server.close(resolve));
  });

  it('answers unknown methods with a JSON 405', async () => {
    const answer = await send(port, 'TRACE', {}, 0);
    expect(answer).toEqual({ status: 405, body: '{"detail":"Method Not Allowed"}', allow: 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS' });
  });

  it('refuses large anonymous bodies, declared or chunked, before the server sees them', async () => {
    reached.length = 0;
    const before = process.memoryUsage().rss;
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, index) => send(port, 'POST', index % 2 ? { 'content-length': String(BODY_BYTES) } : {}, BODY_BYTES)),
    );
    for (const answer of answers) expect(answer.status).toBe(413);
    expect(reached).toEqual([]);
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * 2 ** 20);
  });

  it('lets small anonymous bodies through (a sign-in form; the route answers the rest)', async () => {
    reached.length = 0;
    expect(await send(port, 'POST', { 'content-length': '1000' }, 1000)).toMatchObject({ status: 200, body: 'reached' });
    expect(reached).toEqual(['POST 1000']);
  });
});
