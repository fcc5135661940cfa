// Prometheus metrics through the real routes and the configured services
// (the composition root measures the store it builds): request durations by
// route template, a database outage's 503 by cause, pool use, store latency
// by family, appends and sign-ins; and who may read them.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkSignIn } from '@/lib/auth/sign-in';
import { startMetricsListener } from '@/lib/observability/exposition';
import { getAccountStore, setServicesForTests } from '@/lib/services';
import { createMigratedDatabase, postgresAdmin, testProviders, type ScratchDatabase } from '@/lib/testing/databases';
import { call } from '@/lib/testing/http';
import * as sessions from '@/app/api/apps/[app]/users/[user]/sessions/route';
import * as session from '@/app/api/apps/[app]/users/[user]/sessions/[id]/route';
import * as events from '@/app/api/apps/[app]/users/[user]/sessions/[id]/events/route';
import { metrics } from './metrics';

// One provider per file: the configured services are built once per process. PostgreSQL has the pool to report.
const provider = (await testProviders()).includes('postgresql') ? 'postgresql' : 'sqlite';
const METRICS_TOKEN = 'metrics-token-for-tests';
const PASSWORD = 'a password long enough';

let database: ScratchDatabase;
let bearer: string;
const saved = { ...process.env };

beforeAll(async () => {
  database = await createMigratedDatabase(provider, 'metrics');
  Object.assign(process.env, { DATABASE_URL: database.url, STATEHOUSE_AUTH: 'protected', STATEHOUSE_METRICS_TOKEN: METRICS_TOKEN });
  setServicesForTests({});
  const accounts = await getAccountStore();
  await accounts.createAccount({ name: 'ops', password: PASSWORD, role: 'admin' });
  bearer = `Bearer ${(await accounts.createToken('ops', 'test')).secret}`;
});
afterAll(async () => {
  process.env = saved;
  await database.remove();
});

async function scrape(authorization = `Bearer ${METRICS_TOKEN}`): Promise<{ status: number; text: string; type: string | null }> {
  const response = await metrics(new Request('http://localhost/metrics', { headers: { authorization } }));
  return { status: response.status, text: await response.text(), type: response.headers.get('content-type') };
}

/** The value of one series, or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe(`metrics on ${provider}`, () => {
  it('time each request under its route template, whatever the ids spell', async () => {
    // An app named like a collection must not shift the template.
    const owner = { app: 'users', user: 'sessions' };
    const list = '/api/apps/users/users/sessions/sessions';
    const created = await call(sessions.POST, 'POST', {
      params: owner,
      path: list,
      headers: { authorization: bearer },
      body: { sessionId: 's1' },
    });
    expect(created.status).toBe(200);
    const params = { ...owner, id: 's1' };
    const appended = await call(events.POST, 'POST', {
      params,
      path: `${list}/s1/events`,
      headers: { authorization: bearer },
      body: { author: 'user', actions: { stateDelta: { step: 1 } } },
    });
    expect(appended.status).toBe(200);
    expect((await call(session.GET, 'GET', { params, path: `${list}/s1` })).status).toBe(401);

    const { status, text, type } = await scrape();
    expect(status).toBe(200);
    expect(type).toContain('text/plain');
    const duration = 'statehouse_http_request_duration_seconds_count';
    expect(sample(text, `${duration}{method="POST",route="/api/apps/:app/users/:user/sessions",status="200"}`)).toBe(1);
    expect(sample(text, `${duration}{method="POST",route="/api/apps/:app/users/:user/sessions/:id/events",status="200"}`)).toBe(1);
    expect(sample(text, `${duration}{method="GET",route="/api/apps/:app/users/:user/sessions/:id",status="401"}`)).toBe(1);
    expect(text).not.toContain('route="/api/apps/users');

    const store = 'statehouse_store_operation_duration_seconds_count';
    expect(sample(text, `${store}{family="native",kind="write",operation="append",outcome="ok"}`)).toBe(1);
    expect(sample(text, `${store}{family="native",kind="write",operation="createSession",outcome="ok"}`)).toBe(1);
    expect(sample(text, 'statehouse_appends_total{family="native"}')).toBe(1);
    if (provider === 'postgresql') {
      expect(sample(text, 'statehouse_db_pool_connections{database="statehouse",state="total"}')).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'statehouse_db_pool_connections{database="statehouse",state="waiting"}')).toBe(0);
    }
  });

  it.runIf(provider === 'postgresql')('counts a database outage’s 503 by cause', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const name = new URL(database.url).pathname.slice(1);
    await postgresAdmin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}' AND pid <> pg_backend_pid()`);
    await postgresAdmin(`ALTER DATABASE "${name}" RENAME TO "${name}_away"`);
    try {
      const params = { app: 'users', user: 'sessions', id: 's1' };
      const refused = await call(session.GET, 'GET', {
        params,
        path: '/api/apps/users/users/sessions/sessions/s1',
        headers: { authorization: bearer },
      });
      expect(refused.status).toBe(503);
    } finally {
      await postgresAdmin(`ALTER DATABASE "${name}_away" RENAME TO "${name}"`);
      vi.restoreAllMocks();
    }
    expect(sample((await scrape()).text, 'statehouse_http_unavailable_total{cause="database"}')).toBe(1);
  });

  it('counts sign-ins by outcome, throttled ones included', async () => {
    const accounts = await getAccountStore();
    await accounts.throttle.reset();
    expect((await checkSignIn(accounts, 'ops', PASSWORD, '192.0.2.1')).ok).toBe(true);
    let throttled = false;
    for (let attempt = 0; attempt < 10 && !throttled; attempt++) {
      const check = await checkSignIn(accounts, 'ops', 'wrong password', '192.0.2.2');
      throttled = !check.ok && check.reason === 'throttled';
    }
    expect(throttled).toBe(true);
    const { text } = await scrape();
    expect(sample(text, 'statehouse_sign_ins_total{outcome="success"}')).toBe(1);
    expect(sample(text, 'statehouse_sign_ins_total{outcome="wrong"}')).toBeGreaterThanOrEqual(5);
    expect(sample(text, 'statehouse_sign_ins_total{outcome="throttled"}')).toBe(1);
  });

  it('answers only the bearer of the metrics token, and nothing when no token is set', async () => {
    expect((await scrape('')).status).toBe(401);
    expect((await scrape(`Bearer ${METRICS_TOKEN}x`)).status).toBe(401);
    // An API token is not the metrics token.
    expect((await scrape(bearer)).status).toBe(401);
    delete process.env.STATEHOUSE_METRICS_TOKEN;
    try {
      expect((await scrape()).status).toBe(404);
    } finally {
      process.env.STATEHOUSE_METRICS_TOKEN = METRICS_TOKEN;
    }
  });

  it('serves them without a token on a separate listen address, when one is set', async () => {
    process.env.STATEHOUSE_METRICS_LISTEN = '127.0.0.1:0';
    const server = await startMetricsListener();
    delete process.env.STATEHOUSE_METRICS_LISTEN;
    if (!server) throw new Error('no listener');
    try {
      const { port } = server.address() as AddressInfo;
      const scraped = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toContain('statehouse_appends_total{family="native"} 1');
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(404);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(await startMetricsListener()).toBeUndefined();
  });
});
