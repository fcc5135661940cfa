// The console and a live adk-js agent writing one store at once, on SQLite
// and PostgreSQL: the agent (the real Runner over adk-js's own
// DatabaseSessionService, in a process of its own) must never fail because
// of the console, and the console's writes must never deadlock with it.
// Durations are short; docs/benchmarks.md has longer runs' figures.
import { createEvent } from '@google/adk';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createScratchDatabase, testProviders, type ScratchDatabase } from '../../testing/databases';
import { runCoexistence, type CoexistenceResult } from '../../testing/coexistence';
import { adkJsService } from '../../testing/adk-fixtures/adk-js';
import { openAdkStore, type AdkSessionStore } from '.';

const providers = await testProviders();

const summary = (result: CoexistenceResult) => JSON.stringify(result, null, 1);

describe.each(providers)('a live adk-js agent and the console on %s', (provider) => {
  let database: ScratchDatabase | undefined;
  let store: AdkSessionStore | undefined;

  async function open(): Promise<{ url: string; store: AdkSessionStore }> {
    database = await createScratchDatabase(provider, 'coexist');
    await (await adkJsService(database.url)).close();
    store = await openAdkStore(database.url);
    return { url: database.url, store };
  }

  afterEach(async () => {
    await store?.close();
    await database?.remove();
  });

  // Two agents on PostgreSQL (sessions of one user, so they share its row and the app's); SQLite has one writer at a time anyway.
  const agents = provider === 'sqlite' ? 1 : 2;

  it('one console write a second: the agent and the console never fail', async () => {
    const { url, store } = await open();
    const result = await runCoexistence({ url, store, agents, writers: 1, writeIntervalMs: 1000, durationMs: 6000 });
    expect(result.agent.ok, summary(result)).toBeGreaterThan(0);
    expect(result.agent.failed, summary(result)).toBe(0);
    expect(result.agentOther.failed, summary(result)).toBe(0);
    expect(result.console.failed, summary(result)).toBe(0);
  });

  it('an agent whose clock is ahead: a console append never moves the session’s update time back', async () => {
    const { url, store } = await open();
    const service = await adkJsService(url);
    const ref = { appName: 'shop', userId: 'ada', sessionId: 'ahead' };
    const session = await service.createSession(ref);
    // The agent's machine is 3 s ahead of the console's.
    const agentTime = Date.now() + 3000;
    await service.appendEvent({ session, event: createEvent({ author: 'agent', invocationId: 'i', timestamp: agentTime }) });
    await service.close();
    const before = await store.getSessionSummary(ref);
    const { event } = await store.append(ref, { author: 'operator', content: { role: 'user', parts: [{ text: 'hello' }] } });
    const after = await store.getSessionSummary(ref);
    expect(before?.lastUpdateTime).toBe(agentTime / 1000);
    expect(event.timestamp).toBeGreaterThan(agentTime / 1000);
    expect(after?.lastUpdateTime).toBe(event.timestamp);
    const events = await store.listEvents(ref);
    expect(events.items.map((item) => item.event.author)).toEqual(['agent', 'operator']);
  });

  it('eight console writers as fast as they can: no deadlock, and the agent never fails', async () => {
    const { url, store } = await open();
    const result = await runCoexistence({ url, store, agents, writers: 8, writeIntervalMs: 0, durationMs: 6000 });
    expect(result.agent.ok, summary(result)).toBeGreaterThan(0);
    expect(result.console.ok, summary(result)).toBeGreaterThan(0);
    expect(result.agent.failed, summary(result)).toBe(0);
    expect(result.agentOther.failed, summary(result)).toBe(0);
    expect(result.console.failed, summary(result)).toBe(0);
  });
});

describe.runIf(providers.includes('postgresql'))('the console takes PostgreSQL row locks in adk-js’s order', () => {
  let database: ScratchDatabase | undefined;
  let store: AdkSessionStore | undefined;
  let agent: pg.Client | undefined;

  afterEach(async () => {
    await agent?.end();
    await store?.close();
    await database?.remove();
  });

  it('an append to another session of the user waits for the agent’s append instead of deadlocking with it', async () => {
    database = await createScratchDatabase('postgresql', 'lockorder');
    const service = await adkJsService(database.url);
    const state = { 'user:name': 'Ada', 'app:greeting': 'hi' };
    for (const sessionId of ['s0', 's1']) await service.createSession({ appName: 'shop', userId: 'ada', sessionId, state });
    await service.close();
    store = await openAdkStore(database.url);
    agent = new pg.Client({ connectionString: database.url });
    await agent.connect();

    // adk-js's appendEvent with a user: and an app: key, as MikroORM sends it (js/writes.ts): the session
    // FOR UPDATE, then at flush the user row before the app row. The agent stops between the two.
    await agent.query('BEGIN');
    await agent.query(`SELECT * FROM sessions WHERE app_name = 'shop' AND user_id = 'ada' AND id = 's0' FOR UPDATE`);
    await agent.query(`UPDATE user_states SET state = '{"name":"Ada","seen":1}' WHERE app_name = 'shop' AND user_id = 'ada'`);
    const append = store.append(
      { appName: 'shop', userId: 'ada', sessionId: 's1' },
      { author: 'operator', actions: { stateDelta: { 'user:seen': 2, 'app:greeting': 'hello' } } },
    );
    const appended = append.then(
      () => 'appended',
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    // Long enough for the console to take every lock it can get (PostgreSQL looks for deadlocks after 1 s).
    await new Promise((resolve) => setTimeout(resolve, 300));
    const agentWrite = agent
      .query(`UPDATE app_states SET state = '{"greeting":"hi","count":1}' WHERE app_name = 'shop'`)
      .then(() => agent?.query('COMMIT'))
      .then(
        () => 'committed',
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      );
    expect(await agentWrite).toBe('committed');
    expect(await appended).toBe('appended');
    const tiers = await store.getSessionTiers({ appName: 'shop', userId: 'ada', sessionId: 's1' });
    expect(tiers?.user.find((entry) => entry.key === 'seen')?.value).toBe(2);
    expect(tiers?.app.find((entry) => entry.key === 'greeting')?.value).toBe('hello');
  });
});
