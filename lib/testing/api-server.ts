// A real HTTP server in the test process over the real /api route table
// (lib/http/api), for clients that must be tested over the wire
// (HttpSessionService): requests go through node:http, the table's handlers
// (origin, access, error mapping) and the store the test database serves.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { matchApiRoute } from '../http/api/match';

export interface ApiServer {
  url: string;
  close(): Promise<void>;
}

async function serve(incoming: IncomingMessage, outgoing: ServerResponse, origin: string): Promise<void> {
  const url = new URL(incoming.url ?? '/', origin);
  const method = incoming.method ?? 'GET';
  const match = matchApiRoute(method, url.pathname);
  if (!match) {
    outgoing.writeHead(404, { 'Content-Type': 'application/json' });
    outgoing.end(JSON.stringify({ detail: 'Not Found' }));
    return;
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === 'string') headers.set(name, value);
  const init: RequestInit & { duplex?: 'half' } = { method, headers };
  if (method !== 'GET' && method !== 'HEAD') {
    init.body = Readable.toWeb(incoming) as ReadableStream;
    init.duplex = 'half';
  }
  const response = await match.handler(new Request(url, init), { params: Promise.resolve(match.params) });
  outgoing.writeHead(response.status, Object.fromEntries(response.headers));
  outgoing.end(Buffer.from(await response.arrayBuffer()));
}

/** Listens on an ephemeral port of 127.0.0.1. */
export async function startApiServer(): Promise<ApiServer> {
  let origin = '';
  const server = createServer((incoming, outgoing) => {
    serve(incoming, outgoing, origin).catch((error: unknown) => {
      outgoing.writeHead(500, { 'Content-Type': 'application/json' });
      outgoing.end(JSON.stringify({ detail: String(error) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
