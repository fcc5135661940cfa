// One load test run on one database: a fresh database, a production server
// of its own, the load (optionally with the server killed by SIGKILL halfway
// and restarted), then verification over HTTP and in the database.
import { randomBytes } from 'node:crypto';
import type { Provider } from '../../lib/db';
import { openServices, type OpenedServices } from '../../lib/services';
import { createMigratedDatabase } from '../../lib/testing/databases';
import { percentile, runLoad, type LoadResult, type SessionTarget } from './load';
import { freePort, ProductionServer } from './server';
import { verifyServed, verifyWrites, type VerifyResult } from './verify';

export interface LoadtestOptions {
  provider: Provider;
  clients: number;
  /** Default: one per four clients. */
  sessions?: number;
  durationMs: number;
  /** SIGKILL the server halfway through and restart it. */
  kill: boolean;
  distDir: string;
  log: (line: string) => void;
}

export interface LoadtestSummary {
  provider: Provider;
  clients: number;
  sessions: number;
  users: number;
  durationMs: number;
  kill: boolean;
  throughput: number;
  p50Ms: number;
  p99Ms: number;
  failures: [string, number][];
  served: string[];
  verify: VerifyResult;
}

const APP = 'loadtest';

/**
 * Sessions spread over a few users, two sessions per user: by default four
 * clients per session, so appends race on sessions as well as on user: and app: keys.
 */
function targets(clients: number, sessionCount = Math.max(2, Math.ceil(clients / 4))): SessionTarget[] {
  const users = Math.max(1, Math.floor(sessionCount / 2));
  return Array.from({ length: sessionCount }, (_, index) => ({ userId: `user-${index % users}`, sessionId: `session-${index}` }));
}

async function createSessions(server: ProductionServer, token: string, sessions: SessionTarget[]): Promise<void> {
  for (const session of sessions) {
    const response = await fetch(`${server.baseUrl}/api/apps/${APP}/users/${session.userId}/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ session_id: session.sessionId, state: { 'user:name': session.userId } }),
    });
    if (!response.ok) throw new Error(`Creating ${session.sessionId}: ${response.status} ${await response.text()}`);
  }
}

export async function runLoadtest(options: LoadtestOptions): Promise<LoadtestSummary> {
  const { provider, clients, durationMs, kill, distDir, log } = options;
  // Not kept open, unlike a test database: the server under test opens it
  // itself (and on SQLite its first start migrates the file, which needs it to itself).
  const database = await createMigratedDatabase(provider, 'loadtest');
  let server: ProductionServer | undefined;
  let connection: OpenedServices | undefined;
  try {
    // Protected mode (as PostgreSQL always is): the load goes through API tokens, as scripts' would;
    // an admin's, since the load writes app: keys too.
    connection = await openServices(database.url, { migrate: false });
    const { accounts } = connection;
    await accounts.createAccount({ name: 'loadtest', password: randomBytes(18).toString('base64url'), role: 'admin' });
    const { secret: token } = await accounts.createToken('loadtest', 'load test');
    await connection.close();
    connection = undefined;

    server = new ProductionServer({
      databaseUrl: database.url,
      distDir,
      port: await freePort(),
      token,
      env: { STATEHOUSE_AUTH: 'protected' },
    });
    await server.start();
    const sessions = targets(clients, options.sessions);
    await createSessions(server, token, sessions);
    const users = new Set(sessions.map((s) => s.userId)).size;
    log(
      `${provider}: ${clients} clients on ${sessions.length} sessions of ${users} users for ${durationMs / 1000} s${kill ? ', SIGKILL halfway' : ''}`,
    );

    const load = runLoad({ baseUrl: server.baseUrl, token, appName: APP, clients, durationMs, sessions });
    if (kill) {
      const running = server;
      await new Promise((done) => setTimeout(done, durationMs / 2));
      await running.kill();
      log(`${provider}: server killed (SIGKILL); restarting`);
      await running.start();
    }
    const result: LoadResult = await load;

    connection = await openServices(database.url, { migrate: false });
    const served = await verifyServed(server.baseUrl, token, APP, sessions, connection.store);
    await server.stop();
    const verify = await verifyWrites(connection.db.client, APP, clients, sessions, result.acks);
    return {
      provider,
      clients,
      sessions: sessions.length,
      users,
      durationMs: result.elapsedMs,
      kill,
      throughput: result.acks.length / (result.elapsedMs / 1000),
      p50Ms: percentile(result.latencies, 0.5),
      p99Ms: percentile(result.latencies, 0.99),
      failures: [...result.failures.entries()].sort((a, b) => b[1] - a[1]),
      served,
      verify,
    };
  } finally {
    await server?.stop();
    await connection?.close();
    await database.remove();
  }
}

/** Whether a run kept every promise: nothing lost or doubled, every key right, invariants whole, API = storage; no failures unless killed. */
export function problemsOf(summary: LoadtestSummary): string[] {
  const { verify } = summary;
  const problems: string[] = [];
  if (verify.lost > 0) problems.push(`${verify.lost} acknowledged appends lost (e.g. ${verify.examples.join(', ')})`);
  if (verify.duplicated > 0) problems.push(`${verify.duplicated} events stored more than once`);
  problems.push(...verify.wrongKeys.slice(0, 10).map((key) => `wrong value: ${key}`));
  problems.push(...verify.integrity.problems.map((text) => `integrity: ${text}`));
  problems.push(...summary.served.map((text) => `served: ${text}`));
  if (!summary.kill && summary.failures.length > 0)
    problems.push(`failed requests without a fault: ${summary.failures.map(([r, n]) => `${n}× ${r}`).join('; ')}`);
  if (verify.acknowledged === 0) problems.push('no append was acknowledged');
  return problems;
}

export function describeSummary(summary: LoadtestSummary): string {
  const { verify } = summary;
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  const failed = summary.failures.reduce((sum, [, count]) => sum + count, 0);
  return [
    `${summary.provider}${summary.kill ? ' (server SIGKILLed halfway)' : ''}: ${summary.clients} clients, ${summary.sessions} sessions, ${summary.users} users, ${(summary.durationMs / 1000).toFixed(1)} s`,
    `  acknowledged ${verify.acknowledged} appends: ${summary.throughput.toFixed(0)}/s, latency p50 ${ms(summary.p50Ms)}, p99 ${ms(summary.p99Ms)}`,
    `  failed requests ${failed}${failed ? ` (${summary.failures.map(([reason, count]) => `${count}× ${reason}`).join('; ')})` : ''}`,
    `  lost ${verify.lost}, duplicated ${verify.duplicated}, stored without acknowledgement ${verify.storedUnacknowledged}`,
    `  keys checked ${verify.keysChecked}, wrong ${verify.wrongKeys.length}; storage invariants ${verify.integrity.problemCount === 0 ? 'hold' : `broken ${verify.integrity.problemCount}×`} (${verify.integrity.events} events, ${verify.integrity.changes} history rows); API serves storage: ${summary.served.length === 0 ? 'yes' : 'NO'}`,
  ].join('\n');
}
