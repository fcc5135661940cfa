// Who may read the metrics: a bearer token on the server's own port, or
// anyone who reaches a separate listen address; nobody when neither is set.
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { env } from '../env';
import { metricsText } from './metrics';

export function metricsEnabled(): boolean {
  const { STATEHOUSE_METRICS_TOKEN, STATEHOUSE_METRICS_LISTEN } = env();
  return Boolean(STATEHOUSE_METRICS_TOKEN || STATEHOUSE_METRICS_LISTEN);
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether an Authorization header carries the configured token (compared in constant time); false when none is configured. */
export function carriesMetricsToken(authorization: string | null): boolean {
  const token = env().STATEHOUSE_METRICS_TOKEN;
  const offered = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  return Boolean(token && offered && timingSafeEqual(digest(offered), digest(token)));
}

/** `[host:]port` (IPv6 hosts in brackets); a bare port listens on every address. */
export function parseListenAddress(value: string): { host: string | undefined; port: number } {
  const match = /^(?:(\[[^\]]+\]|[^:]+):)?(\d{1,5})$/.exec(value.trim());
  const port = Number(match?.[2]);
  if (!match || port > 65_535) throw new Error(`STATEHOUSE_METRICS_LISTEN=${JSON.stringify(value)} is not [host:]port.`);
  return { host: match[1]?.replace(/^\[(.*)\]$/, '$1'), port };
}

/**
 * Serves GET /metrics (and nothing else) on STATEHOUSE_METRICS_LISTEN, if
 * set; resolves with the listening server, or undefined when not set.
 */
export async function startMetricsListener(): Promise<Server | undefined> {
  const listen = env().STATEHOUSE_METRICS_LISTEN;
  if (!listen) return undefined;
  const { host, port } = parseListenAddress(listen);
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not Found\n');
      return;
    }
    metricsText().then(
      ({ contentType, body }) => response.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' }).end(body),
      (error: unknown) => {
        console.error('Collecting metrics failed:', error);
        response.writeHead(500, { 'Content-Type': 'text/plain' }).end('Collecting metrics failed\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}
