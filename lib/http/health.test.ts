// /healthz and /readyz over real databases: the own database and an agent's
// store each answering, one renamed away (refused), one that never answers
// (the deadline); and the proxy lets both through without a sign-in.
import net from 'node:net';
import { NextRequest } from 'next/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { proxy } from '@/proxy';
import { openAgentServices, openServices, setServicesForTests, type AgentServices } from '@/lib/services';
import { createMigratedDatabase, postgresAdmin, testProviders, withDatabase, type ScratchDatabase } from '@/lib/testing/databases';
import { writeAdkFixture } from '@/lib/testing/adk-fixtures/stores';
import { healthz, readyz } from './health';

const providers = await testProviders();

afterEach(() => {
  setServicesForTests({});
  delete process.env.STATEHOUSE_READY_TIMEOUT_MS;
});

describe('/healthz', () => {
  it('answers without any database', async () => {
    setServicesForTests({ store: undefined });
    const response = await healthz();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
    expect(response.headers.get('cache-control')).toBe('no-store');
  });
});

describe.each(providers)('/readyz on %s', (provider) => {
  let own: ScratchDatabase;
  beforeAll(async () => {
    own = await createMigratedDatabase(provider, 'ready');
  });
  afterAll(() => own.remove());

  it('is ready when Statehouse’s database answers', async () => {
    const services = await openServices(own.url, { migrate: false });
    try {
      setServicesForTests(services);
      const response = await readyz();
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 'ready', checks: { statehouse: 'up' } });
    } finally {
      await services.close();
    }
  });
});

describe.runIf(providers.includes('postgresql'))('/readyz with an agent’s PostgreSQL store', () => {
  let own: ScratchDatabase;
  let agent: { locator: string; remove(): Promise<void> };
  let services: AgentServices;
  let agentName: string;
  beforeAll(async () => {
    own = await createMigratedDatabase('sqlite', 'ready-own');
    agent = await writeAdkFixture({ family: 'py-db', dialect: 'postgresql', clock: 'utc' });
    agentName = new URL(agent.locator).pathname.slice(1);
    services = await openAgentServices(own.url, [{ id: 'orders', location: agent.locator }], { migrate: false });
  });
  afterAll(async () => {
    await services.close();
    await agent.remove();
    await own.remove();
  });

  it('names the store that stopped answering, and is ready again once it is back', async () => {
    setServicesForTests(services);
    expect(await (await readyz()).json()).toEqual({ status: 'ready', checks: { statehouse: 'up', orders: 'up' } });

    const away = `${agentName}_away`;
    await postgresAdmin(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${agentName}' AND pid <> pg_backend_pid()`,
    );
    await postgresAdmin(`ALTER DATABASE "${agentName}" RENAME TO "${away}"`);
    try {
      const response = await readyz();
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      const body = await response.json();
      expect(body).toEqual({
        status: 'unavailable',
        detail: 'Not ready: orders did not answer.',
        failed: ['orders'],
        checks: { statehouse: 'up', orders: 'down' },
      });
      // Up/down and names only: no location, driver message or password.
      expect(JSON.stringify(body)).not.toContain(agentName);
    } finally {
      await postgresAdmin(`ALTER DATABASE "${away}" RENAME TO "${agentName}"`);
    }
    expect((await readyz()).status).toBe(200);
  });
});

describe.runIf(providers.includes('postgresql'))('/readyz with a database that never answers', () => {
  let silent: net.Server;
  const sockets = new Set<net.Socket>();
  beforeAll(async () => {
    // Accepts connections and says nothing: a database hung rather than down.
    silent = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  it('answers 503 within its deadline', async () => {
    const { port } = silent.address() as net.AddressInfo;
    const services = await openServices(withDatabase(`postgresql://postgres@127.0.0.1:${port}/x`, 'silent'), { migrate: false });
    process.env.STATEHOUSE_READY_TIMEOUT_MS = '300';
    setServicesForTests(services);
    const started = performance.now();
    const response = await readyz();
    // The deadline bounds the answer; the margin is for a loaded machine, far below pg's own connect timeout.
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(response.status).toBe(503);
    expect((await response.json()).failed).toEqual(['statehouse']);
    for (const socket of sockets) socket.destroy();
    await services.close().catch(() => undefined);
  });
});

describe('the proxy', () => {
  it.each(['/healthz', '/readyz', '/metrics'])('passes %s on in protected mode without credentials, under any host name', async (path) => {
    process.env.STATEHOUSE_AUTH = 'protected';
    try {
      const response = await proxy(new NextRequest(`http://statehouse.internal:8080${path}`));
      expect(response.status).toBe(200);
      expect(response.headers.get('x-middleware-next')).toBe('1');
    } finally {
      delete process.env.STATEHOUSE_AUTH;
    }
  });

  it('still sends other anonymous requests to sign in', async () => {
    process.env.STATEHOUSE_AUTH = 'protected';
    try {
      const response = await proxy(new NextRequest('http://statehouse.internal:8080/apps'));
      expect(response.status).toBe(307);
    } finally {
      delete process.env.STATEHOUSE_AUTH;
    }
  });
});
