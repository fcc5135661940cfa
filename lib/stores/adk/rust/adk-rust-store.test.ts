// The adk-rust family on stores the generator writes as adk-rust v2.0.0
// does (fixture.ts), on SQLite and PostgreSQL: reads, browsing that changes
// nothing, and writes whose rows are the ones Rust's own append writes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, testProviders, type ScratchDatabase } from '../../../testing/databases';
import { openAdkStore, type AdkSessionStore } from '..';
import { sqliteFilePath } from '../../../db/url';
import { dumpAgentDatabase, RustStoreWriter, rfc3339, writeRustFixture } from '../../../testing/adk-fixtures';
import { toRfc3339 } from './time';

const providers = await testProviders();
const where = (url: string) => (url.startsWith('file:') ? { sqlitePath: sqliteFilePath(url) } : { postgresUrl: url });
const alice = { appName: 'shop', userId: 'alice', sessionId: 'alice-1' };
const BASE_S = Date.UTC(2026, 10, 20, 9, 0, 0) / 1000;

/** Rows with their JSON columns parsed: Rust's HashMap key order is arbitrary, so only the values are compared. */
function parsedDump(dump: Record<string, unknown[]>): Record<string, unknown[]> {
  const parse = (value: unknown): unknown => {
    if (typeof value === 'string' && /^[[{]/.test(value)) {
      try {
        return JSON.parse(value) as unknown;
      } catch {
        return value;
      }
    }
    return value;
  };
  const row = (value: unknown) =>
    value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, parse(v)])) : value;
  const key = (value: unknown) => JSON.stringify(value);
  return Object.fromEntries(Object.entries(dump).map(([table, rows]) => [table, rows.map(row).sort((a, b) => (key(a) < key(b) ? -1 : 1))]));
}

describe('chrono to_rfc3339', () => {
  it('writes 0, 3, 6 or 9 fraction digits and +00:00', () => {
    const ns = BigInt(BASE_S) * 1_000_000_000n;
    expect(rfc3339(ns)).toBe('2026-11-20T09:00:00+00:00');
    expect(rfc3339(ns + 250_000_000n)).toBe('2026-11-20T09:00:00.250+00:00');
    expect(rfc3339(ns + 250_000n)).toBe('2026-11-20T09:00:00.000250+00:00');
    expect(rfc3339(ns + 123_456_789n)).toBe('2026-11-20T09:00:00.123456789+00:00');
    expect(toRfc3339(BASE_S + 0.25)).toBe('2026-11-20T09:00:00.250+00:00');
    expect(toRfc3339(BASE_S)).toBe('2026-11-20T09:00:00+00:00');
  });
});

describe.each(providers)('adk-rust store on %s', (provider) => {
  let database: ScratchDatabase;
  let store: AdkSessionStore;

  beforeAll(async () => {
    database = await createScratchDatabase(provider, 'adkrust');
    await writeRustFixture(database.url);
    store = await openAdkStore(database.url);
  });
  afterAll(async () => {
    await store?.close();
    await database?.remove();
  });

  it('is detected as adk-rust v1 and opens writable', () => {
    expect(store.info).toMatchObject({ family: 'adk-rust', version: '1' });
    expect(store.info.readOnlyReason).toBeUndefined();
  });

  it('reads the tiers: the session tier is the snapshot without its app: and user: copies', async () => {
    const tiers = await store.getSessionTiers(alice);
    const values = (entries: { key: string; value: unknown }[] | undefined) =>
      Object.fromEntries((entries ?? []).map((e) => [e.key, e.value]));
    expect(values(tiers?.app)).toEqual({ theme: 'light' });
    expect(values(tiers?.user)).toEqual({ name: 'Alice B.', likes: ['tea'] });
    expect(values(tiers?.session)).toEqual({ cart: ['tea', 'cups'], last_reply: 'Added tea.' });
    expect((await store.listApps()).map((app) => [app.appName, app.sessionCount])).toEqual([
      ['desk', 1],
      ['shop', 2],
    ]);
  });

  it('shows events in ADK shape: untagged parts as functionCall / functionResponse, sub-millisecond times', async () => {
    const { items, total } = await store.listEvents(alice);
    expect(total).toBe(5);
    expect(items.map((item) => item.event.id)).toEqual(['e1', 'e2', 'e3', 'e4', 'e5']);
    expect(items[1]?.event.content?.parts?.[0]).toEqual({ functionCall: { name: 'add_to_cart', args: { item: 'tea' }, id: 'call-1' } });
    expect(items[2]?.event.content?.parts?.[0]).toEqual({
      functionResponse: { id: 'call-1', name: 'add_to_cart', response: { ok: true } },
    });
    expect(items[2]?.event.actions.stateDelta).toEqual({ cart: ['tea'], 'user:likes': ['tea'] });
    expect(items[3]?.event.turnComplete).toBe(true);
    expect(items[2]?.event.timestamp).toBeCloseTo(BASE_S + 3.00025, 6);
    const changes = await store.listEventChanges(alice, [5]);
    expect(changes.find((c) => c.key === 'cart')).toMatchObject({ oldValue: ['tea'], newValue: ['tea', 'cups'] });
    const asOf = await store.getStateAsOf(alice, 3);
    expect(Object.fromEntries((asOf?.session ?? []).map((e) => [e.key, e.value]))).toEqual({ cart: ['tea'] });
  });

  it('refuses a registry past v1, as Rust’s own migration runner does, naming what it found', async () => {
    const newer = await createScratchDatabase(provider, 'adkrustv2');
    try {
      await (await RustStoreWriter.open(newer.url)).close();
      const { Client } = (await import('pg')).default;
      const sql =
        "INSERT INTO _adk_session_migrations (version, description, applied_at) VALUES (2, 'future', '2027-01-01T00:00:00+00:00')";
      if (provider === 'sqlite') {
        const { default: Database } = await import('better-sqlite3');
        const db = new Database(sqliteFilePath(newer.url));
        db.exec(sql);
        db.close();
      } else {
        const client = new Client({ connectionString: newer.url });
        await client.connect();
        await client.query(sql);
        await client.end();
      }
      await expect(openAdkStore(provider === 'sqlite' ? sqliteFilePath(newer.url) : newer.url)).rejects.toThrow(/schema v2/);
    } finally {
      await newer.remove();
    }
  });

  it('changes nothing in the database while browsing', async () => {
    const before = await dumpAgentDatabase(where(database.url));
    await store.listApps();
    await store.listUsers('shop');
    await store.searchSessions({ appName: 'shop', stateKey: 'cart' });
    await store.searchSessions({ appName: 'shop', idContains: 'bob' });
    await store.getSessionTiers(alice);
    await store.getSession(alice);
    await store.listEvents(alice, { newestFirst: true });
    await store.getKeyHistory({ appName: 'shop', scope: 'user', userId: 'alice', key: 'likes' });
    await store.getStateAsOf(alice, 1);
    expect(await dumpAgentDatabase(where(database.url))).toEqual(before);
  });
});

describe.each(providers)('adk-rust writes on %s', (provider) => {
  let rust: ScratchDatabase;
  let statehouse: ScratchDatabase;

  beforeAll(async () => {
    rust = await createScratchDatabase(provider, 'rustref');
    statehouse = await createScratchDatabase(provider, 'rustsh');
    await writeRustFixture(rust.url);
    await writeRustFixture(statehouse.url);
  });
  afterAll(async () => {
    await rust?.remove();
    await statehouse?.remove();
  });

  it('an append writes the rows Rust’s append_event_for_identity writes, with or without a delta', async () => {
    const writer = await RustStoreWriter.open(rust.url);
    const at = BigInt(BASE_S + 20) * 1_000_000_000n + 250_000_000n;
    await writer.append('shop', 'alice', 'alice-1', {
      id: 'sh-1',
      nanos: at,
      invocationId: 'support',
      author: 'support',
      content: { role: 'user', parts: [{ text: 'from support' }] },
      stateDelta: { note: 'vip', 'user:tier': 'gold', 'temp:x': 1 },
    });
    await writer.append('shop', 'bob', 'bob-1', {
      id: 'sh-2',
      nanos: at + 1_000_000_000n,
      invocationId: 'support',
      author: 'support',
      content: { role: 'user', parts: [{ text: 'ping' }] },
    });
    await writer.close();

    const store = await openAdkStore(statehouse.url);
    try {
      // Rust never refuses an append: an old revision goes through.
      await store.append(
        alice,
        {
          id: 'sh-1',
          timestamp: BASE_S + 20.25,
          invocationId: 'support',
          author: 'support',
          content: { role: 'user', parts: [{ text: 'from support' }] },
          actions: { stateDelta: { note: 'vip', 'user:tier': 'gold', 'temp:x': 1 } },
        },
        { expectedRevision: 1 },
      );
      await store.append(
        { appName: 'shop', userId: 'bob', sessionId: 'bob-1' },
        {
          id: 'sh-2',
          timestamp: BASE_S + 21.25,
          invocationId: 'support',
          author: 'support',
          content: { role: 'user', parts: [{ text: 'ping' }] },
        },
      );
    } finally {
      await store.close();
    }
    const expected = parsedDump(await dumpAgentDatabase(where(rust.url)));
    const actual = parsedDump(await dumpAgentDatabase(where(statehouse.url)));
    delete expected._adk_session_migrations;
    delete actual._adk_session_migrations;
    expect(actual).toEqual(expected);
  });

  it('an edit writes the tier row; Rust’s next append merges it into the session snapshot', async () => {
    const store = await openAdkStore(statehouse.url);
    try {
      await store.editState({ appName: 'shop', scope: 'app', changes: { theme: 'contrast' }, actor: 'ops', reason: 'test' });
      await expect(
        store.append(alice, { author: 'x', content: { role: 'user', parts: [{ codeExecutionResult: { outcome: 'OK' } }] } }),
      ).rejects.toMatchObject({
        code: 'INVALID_INPUT',
      });
    } finally {
      await store.close();
    }
    const writer = await RustStoreWriter.open(statehouse.url);
    await writer.append('shop', 'alice', 'alice-1', {
      id: 'r-9',
      nanos: BigInt(BASE_S + 30) * 1_000_000_000n,
      invocationId: 'i',
      author: 'agent',
      stateDelta: { step: 2 },
    });
    await writer.close();
    const reopened = await openAdkStore(statehouse.url);
    try {
      const session = await reopened.getSession(alice);
      expect(session?.state).toMatchObject({ 'app:theme': 'contrast', step: 2, note: 'vip', 'user:tier': 'gold' });
    } finally {
      await reopened.close();
    }
  });
});
