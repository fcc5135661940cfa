import type { Server } from 'node:http';
import { env } from '../env';

/**
 * How long an idle kept-alive connection stays open by default. Node closes
 * one after 5 s; a client that keeps connections longer (AWS's balancers
 * 60 s, Playwright's request context until the server closes them) may send
 * its next request just as the server closes, and get a reset instead of an
 * answer. The side that closes first must be the client, so the server
 * waits longer than the usual balancer.
 */
export const DEFAULT_KEEP_ALIVE_MS = 65_000;

const configured = new WeakSet<Server>();

/**
 * Sets the server's idle keep-alive time, once per server: KEEP_ALIVE_TIMEOUT
 * (ms, the name Next's standalone server reads too), else the default above.
 * Node reads it as each answer finishes, so it holds from the next one on.
 */
export function keepConnectionsAlive(server: Server): void {
  if (configured.has(server)) return;
  configured.add(server);
  // (The idle wait does not count against headersTimeout or requestTimeout: those start with a request's first byte.)
  server.keepAliveTimeout = env().KEEP_ALIVE_TIMEOUT ?? DEFAULT_KEEP_ALIVE_MS;
}
