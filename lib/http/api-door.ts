import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip, gzip } from 'node:zlib';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { isLoopbackHost } from '../auth/config';
import { credentialsOf, hasAnyCredential, SESSION_COOKIE } from '../auth/principal';
import { authConfig } from '../config';
import { env } from '../env';
import { matchApiRoute, type ApiMatch } from './api/match';
import type { HeaderReader } from './api-request';
import { cookieValue } from './cookie';
import { DoorRequest } from './door-request';
import { API_CACHE_CONTROL, hasMalformedEncoding } from './early-guards';
import { isChunkedJson, jsonTextOf } from './respond';

/*
 * The /api fast path: the server's door (door.ts) hands a request that
 * matches the API table straight to the table's handler, the very function
 * Next's route file exports, without Next's page pipeline (its router, the
 * proxy's second request object, its response plumbing). Only requests the
 * proxy would let through unchanged come here: a well-formed path, and in
 * local mode a loopback host, in protected mode some credential; everything
 * else, and every path the table does not have, goes on to Next, which
 * answers as before (and `next dev` serves all of /api itself, so that
 * edited handlers are recompiled). The handler does its own origin check, authentication,
 * roles and error mapping (route()), so the answers are the same; the proxy's
 * one addition to /api answers, Cache-Control, is made here too. The handler
 * reads Node's request through a DoorRequest, not a web Request.
 */

/**
 * Bodies smaller than this go uncompressed. Gzip takes about as long per
 * byte as a 1 Gbit/s link takes to carry it (64 KiB: half a millisecond
 * either way), so below this it costs the server more than it saves an agent
 * next to it; a 20-event session read (about 10 KiB) is not worth it.
 */
export const COMPRESS_MIN_BYTES = 64 * 1024;

/**
 * A request body with a Content-Length up to this is read here and handed
 * to the handler whole (a web stream over the socket costs more than the
 * copy); a larger or chunked one is streamed, so the handler's size limit
 * refuses it before it is held.
 */
const WHOLE_BODY_MAX_BYTES = 64 * 1024;

/** The test-only mark of an answer from this path (STATEHOUSE_DOOR_HEADER=1). */
export const DOOR_HEADER = 'x-statehouse-door';

const gzipAsync = promisify(gzip);

/**
 * The request's headers as Node parsed them, read as a web Headers reads
 * them (names in any case, repeated values joined by `, `), without copying
 * them into one: the handler of a matched request reads them here too
 * (door-request.ts).
 */
export function headersOf(request: IncomingMessage): HeaderReader {
  const parsed = request.headers;
  const get = (name: string): string | null => {
    const value = parsed[name.toLowerCase()];
    if (value === undefined) return null;
    return typeof value === 'string' ? value : value.join(', ');
  };
  return { get, has: (name) => get(name) !== null };
}

/** The host name the client addressed, without port or IPv6 brackets (as proxy.ts reads it). */
function addressedHost(headers: HeaderReader): string {
  return (headers.get('host') ?? '').replace(/:\d+$/, '').replace(/^\[(.*)\]$/, '$1');
}

/** A request the door answers: the table's handler, and the request's URL, parsed once. */
export interface DoorMatch extends ApiMatch {
  url: URL;
}

/** The table's handler for a request the proxy would pass unchanged; null: Next's to answer. */
export function fastApiRoute(request: IncomingMessage, headers: HeaderReader): DoorMatch | null {
  const target = request.url ?? '/';
  // In development Next recompiles the handlers on change; this module would keep serving the first build's.
  if (!target.startsWith('/api/') || process.env.NODE_ENV !== 'production') return null;
  let url: URL;
  try {
    // With the Host the client sent: a Host that makes no URL (`a b`) is Next's to refuse.
    url = new URL(target, `http://${headers.get('host') ?? 'localhost'}`);
  } catch {
    return null;
  }
  const { pathname } = url;
  if (hasMalformedEncoding(pathname)) return null;
  let config;
  try {
    config = authConfig();
  } catch {
    return null;
  }
  if (
    config.mode === 'local'
      ? !isLoopbackHost(addressedHost(headers))
      : !hasAnyCredential(credentialsOf(headers, cookieValue(headers.get('cookie'), SESSION_COOKIE), config))
  ) {
    return null;
  }
  const match = matchApiRoute(request.method ?? 'GET', pathname);
  return match && { ...match, url };
}

function acceptsGzip(headers: HeaderReader): boolean {
  const accepted = headers.get('accept-encoding') ?? '';
  return /\bgzip\b/i.test(accepted) && !/\bgzip\s*;\s*q\s*=\s*0(\.0*)?\s*(,|$)/i.test(accepted);
}

/** Streamed answers (exports) are passed on as they come; the rest are read whole, to be measured. */
function isStreamed(response: Response, head: Readonly<Record<string, string | string[]>>): boolean {
  if (isChunkedJson(response)) return true;
  return head['content-disposition'] !== undefined || !String(head['content-type'] ?? '').startsWith('application/json');
}

async function send(request: IncomingMessage, headers: HeaderReader, response: Response, out: ServerResponse): Promise<void> {
  // The answer's headers are read once, here (names lower-case, repeated ones joined); later checks read this copy.
  const head: Record<string, string | string[]> = {};
  let cookies = false;
  response.headers.forEach((value, name) => {
    if (name === 'set-cookie') cookies = true;
    else head[name] = value;
  });
  if (cookies) head['set-cookie'] = response.headers.getSetCookie();
  const contentType = String(head['content-type'] ?? '');
  head['cache-control'] ??= API_CACHE_CONTROL;
  if (env().STATEHOUSE_DOOR_HEADER) head[DOOR_HEADER] = 'api';
  // A live stream (an agent's events as they come) is passed on unbuffered: gzip would hold its lines back.
  const live = /^(application\/x-ndjson|text\/event-stream)\b/i.test(contentType);
  const gzipWanted = acceptsGzip(headers) && !live && head['content-encoding'] === undefined;
  // json()'s text, read before the body: a JSON answer makes its body stream only when that is read (respond.ts).
  const text = jsonTextOf(response);
  if (request.method === 'HEAD' || (text === undefined && !response.body)) {
    out.writeHead(response.status, head);
    out.end();
    if (text === undefined) await response.body?.cancel();
    return;
  }
  if (text === undefined && isStreamed(response, head) && response.body) {
    const body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>);
    if (gzipWanted) {
      head['content-encoding'] = 'gzip';
      head.vary = 'Accept-Encoding';
      delete head['content-length'];
      out.writeHead(response.status, head);
      await pipeline(body, createGzip(), out);
    } else {
      out.writeHead(response.status, head);
      await pipeline(body, out);
    }
    return;
  }
  let body: Buffer | string = text ?? Buffer.from(await response.arrayBuffer());
  let length = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  if (gzipWanted && length >= COMPRESS_MIN_BYTES) {
    body = await gzipAsync(body);
    length = body.length;
    head['content-encoding'] = 'gzip';
    head.vary = 'Accept-Encoding';
  }
  head['content-length'] = String(length);
  out.writeHead(response.status, head);
  // A text goes out as it is: Node writes it after the head in one piece, with no copy into a Buffer first.
  out.end(body);
}

/** The body of a request whose Content-Length Node's parser holds it to. */
async function wholeBody(request: IncomingMessage): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const whole = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
  return new Uint8Array(whole.buffer as ArrayBuffer, whole.byteOffset, whole.byteLength);
}

/** Answers a matched request through its handler. */
export async function serveApi(request: IncomingMessage, headers: HeaderReader, match: DoorMatch, out: ServerResponse): Promise<void> {
  const method = request.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  try {
    const declared = Number(request.headers['content-length'] ?? Number.NaN);
    const whole = hasBody && declared <= WHOLE_BODY_MAX_BYTES ? await wholeBody(request) : undefined;
    const apiRequest = new DoorRequest(request, out, match.url, headers, whole);
    const response = await match.handler(apiRequest, { params: Promise.resolve(match.params) });
    await send(request, headers, response, out);
  } catch (error) {
    console.error('The /api door failed to answer:', error);
    if (!out.headersSent) {
      const body = JSON.stringify({ detail: 'Internal Server Error' });
      out.writeHead(500, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'cache-control': API_CACHE_CONTROL,
      });
      out.end(body);
    } else out.destroy();
  }
}
