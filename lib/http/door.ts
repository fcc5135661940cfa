import { Server, type IncomingMessage, type ServerResponse } from 'node:http';
import { DOOR_INSTALLED, normalizeAddress, PEER_ADDRESS_HEADER, UNKNOWN_ADDRESS } from '../auth/client-address';
import { authenticate, credentialsOf, hasAnyCredential, SESSION_COOKIE } from '../auth/principal';
import { authConfig } from '../config';
import { getAccountStore } from '../services';
import { cookieValue } from './cookie';
import { ALLOW_ANY_ROUTE, API_CACHE_CONTROL, hasLargeBody, isKnownMethod, MAX_ANONYMOUS_BODY_BYTES } from './early-guards';
import { databaseFailureSummary, isDatabaseUnavailable } from '../db/unavailable';
import { RETRY_AFTER_SECONDS } from './errors';
import { fastApiRoute, headersOf, serveApi } from './api-door';
import { keepConnectionsAlive } from './keep-alive';
import type { HeaderReader } from './api-request';
import { countUnavailable, observePageRender } from '../observability/metrics';
import { pageTemplate } from '../observability/route-template';

/*
 * The door before Next: a few refusals that must happen before Next touches
 * the request. Next builds a fetch Request for proxy.ts, which throws (a
 * logged 500) for TRACE, TRACK and CONNECT; and it copies every body it runs
 * the proxy for and waits for the whole body before answering, so a refusal
 * in proxy.ts still receives and buffers up to 10 MB per request. Here an
 * anonymous large body is answered at once and its connection closed, so
 * the rest is never read. Installed from instrumentation.ts into the server
 * process (`next start` and `next dev` alike), as a wrapper around the
 * 'request' event of every HTTP server.
 */

/** What is read and dropped of a refused body before its connection is cut. */
const LINGER_BYTES = 16 * 1024 * 1024;
const LINGER_MS = 2_000;

/**
 * Reads and drops what the client is still sending, a little while, then
 * cuts the connection: closing at once with data unread makes the kernel
 * reset the connection, and the client may lose the answer with it. (So the
 * answer does not say `Connection: close`: Node would close right after it.)
 */
function linger(request: IncomingMessage, response: ServerResponse): void {
  let dropped = 0;
  const cut = () => request.socket.destroy();
  const timer = setTimeout(cut, LINGER_MS);
  timer.unref();
  request.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > LINGER_BYTES) cut();
  });
  request.on('end', () => clearTimeout(timer));
  response.on('close', () => {
    if (request.complete) clearTimeout(timer);
  });
}

function answer(response: ServerResponse, status: number, detail: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ detail });
  response.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': API_CACHE_CONTROL,
    ...headers,
  });
  response.end(body);
  linger(response.req, response);
}

const TOO_LARGE = `Request body too large: at most ${MAX_ANONYMOUS_BODY_BYTES} bytes (with Content-Length) before signing in.`;

/**
 * Whether the door answered the request itself (so Next must not see it).
 * A large body with a credential waits, unread, while the credential is
 * checked: one that proves nobody is no better than none.
 */
export function refusedAtDoor(request: IncomingMessage, headers: HeaderReader, response: ServerResponse): boolean | Promise<boolean> {
  const method = request.method ?? 'GET';
  if (!isKnownMethod(method)) {
    answer(response, 405, 'Method Not Allowed', { Allow: ALLOW_ANY_ROUTE });
    return true;
  }
  if (!hasLargeBody(headers)) return false;
  let config;
  try {
    config = authConfig();
  } catch {
    return false; // proxy.ts answers a misconfiguration
  }
  if (config.mode === 'local') return false;
  const credentials = credentialsOf(headers, cookieValue(headers.get('cookie'), SESSION_COOKIE), config);
  if (!hasAnyCredential(credentials)) {
    answer(response, 413, TOO_LARGE);
    return true;
  }
  return getAccountStore()
    .then((store) => authenticate(credentials, store, config))
    .then(
      (principal) => {
        if (principal) return false;
        answer(response, 413, TOO_LARGE);
        return true;
      },
      (error: unknown) => {
        if (!isDatabaseUnavailable(error)) throw error;
        const message = databaseFailureSummary(error);
        console.error(`Database unavailable: ${message}`);
        countUnavailable('database');
        answer(response, 503, `Database unavailable: ${message}`, { 'Retry-After': String(RETRY_AFTER_SECONDS) });
        return true;
      },
    );
}

/**
 * Only the door knows the socket: it hands the peer's address on in a
 * header of its own, overwriting any the client sent, so the sign-in
 * throttle counts the real peer (lib/auth/client-address.ts).
 */
function recordPeerAddress(request: IncomingMessage): void {
  request.headers[PEER_ADDRESS_HEADER] = normalizeAddress(request.socket.remoteAddress) ?? UNKNOWN_ADDRESS;
}

/** Next's own files and the API (measured by route()): not page renders. */
const NOT_A_PAGE = /^\/(?:_next|api)(?:\/|$)|\.[a-z0-9]+$/i;

/** Times a request Next answers as a console page, until its answer is sent. */
function measurePage(request: IncomingMessage, response: ServerResponse): void {
  const method = request.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD') return;
  const pathname = (request.url ?? '/').split('?')[0] ?? '/';
  if (NOT_A_PAGE.test(pathname)) return;
  const started = performance.now();
  const kind = request.headers.rsc === '1' ? 'rsc' : 'document';
  response.once('finish', () => {
    const status = response.statusCode;
    observePageRender({ route: pageTemplate(pathname, status), kind, status }, (performance.now() - started) / 1000);
  });
}

/** Wraps every HTTP server's 'request' event with refusedAtDoor, and sets its keep-alive; once per process. */
export function installDoor(): void {
  const prototype = Server.prototype as Server & { [DOOR_INSTALLED]?: true };
  if (prototype[DOOR_INSTALLED]) return;
  prototype[DOOR_INSTALLED] = true;
  const emit = prototype.emit as (this: Server, event: string | symbol, ...args: unknown[]) => boolean;
  prototype.emit = function (this: Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event !== 'request') return emit.call(this, event, ...args);
    const [request, response] = args as [IncomingMessage, ServerResponse];
    keepConnectionsAlive(this);
    recordPeerAddress(request);
    const passOn = () => emit.call(this, event, ...args);
    const failed = (error: unknown) => {
      console.error('The request guard failed; passing the request on:', error);
      return passOn();
    };
    // Past the guards: a request the API table answers is served here (api-door.ts), the rest by Next.
    const onward = (headers: HeaderReader) => {
      const match = fastApiRoute(request, headers);
      if (!match) {
        measurePage(request, response);
        return passOn();
      }
      void serveApi(request, headers, match, response);
      return true;
    };
    try {
      const headers = headersOf(request);
      const refused = refusedAtDoor(request, headers, response);
      if (refused === true) return true;
      if (refused === false) return onward(headers);
      void refused.then((done) => done || onward(headers), failed);
      return true;
    } catch (error) {
      return failed(error);
    }
  } as Server['emit'];
}
