// Daylight saving in an adk-python DatabaseSessionService store whose agent
// wrote naive local times (`datetime.fromtimestamp(ts)`) in Europe/Berlin:
// events from both seasons read at their true instants whatever this
// machine's zone, and an append in another season than the newest row is
// stored at the wall time adk-python's own rule gives that instant.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAgentDb } from '../agent-db';
import { openAdkStore, type AdkSessionStore } from '..';
import { storeOptionsOf } from '../open';
import { testProviders } from '../../../testing/databases';
import { mysqlAvailable } from '../../../testing/mysql';
import { naiveInZone } from '../../../testing/adk-fixtures/python-db';
import type { AdkFixtureKind, ScenarioEvent, ScenarioSession } from '../../../testing/adk-fixtures';
import { writeAdkFixture } from '../../../testing/adk-fixtures/stores';

const ZONE = 'Europe/Berlin';
const APP = 'travel_agent';
/** 2026-01-15T10:00:00.5Z (CET, UTC+1). */
const WINTER = Date.UTC(2026, 0, 15, 10) / 1000 + 0.5;
/** 2026-07-15T10:00:01.25Z (CEST, UTC+2), the newest row. */
const SUMMER = Date.UTC(2026, 6, 15, 10) / 1000 + 1.25;
/** 2026-10-25T00:30:00.125Z and 01:30: both 02:30 on Berlin's wall clock (the hour repeated when clocks go back). */
const FOLD_FIRST = Date.UTC(2026, 9, 25, 0, 30) / 1000 + 0.125;
const FOLD_SECOND = FOLD_FIRST + 3600;
/** An append on 2026-11-25 (winter again), while the newest stored row is from summer. */
const APPEND = Date.UTC(2026, 10, 25, 18, 5) / 1000 + 0.375;

function event(id: string, timestamp: number, delta: Record<string, number> = {}): ScenarioEvent {
  return {
    id,
    invocation_id: `inv-${id}`,
    author: 'planner',
    timestamp,
    actions: { state_delta: delta, artifact_delta: {}, requested_auth_configs: {}, requested_tool_confirmations: {} },
  };
}

const sessions = (withWinter: boolean): ScenarioSession[] => [
  ...(withWinter
    ? [
        {
          userId: 'alice',
          sessionId: 'winter',
          created: WINTER - 10,
          events: [event('w1', WINTER, { step: 1 }), event('w2', WINTER + 60)],
        },
        { userId: 'alice', sessionId: 'no-stamp', created: WINTER - 10, events: [event('n1', WINTER + 1), event('n2', SUMMER - 86_400)] },
        { userId: 'bob', sessionId: 'autumn', created: FOLD_FIRST - 10, events: [event('f1', FOLD_FIRST), event('f2', FOLD_SECOND)] },
      ]
    : []),
  { userId: 'alice', sessionId: 'summer', created: SUMMER - 10, events: [event('s1', SUMMER - 30), event('s2', SUMMER, { step: 2 })] },
];

/** A naive `YYYY-MM-DD HH:MM:SS[.ffffff]` as seconds of a UTC-read wall clock (PostgreSQL drops trailing zeros). */
function wallSeconds(text: string): number {
  const match = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new Error(`not a naive timestamp: ${text}`);
  const [, y, mo, d, h, mi, s, frac = ''] = match;
  return Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)) / 1000 + Number(frac.padEnd(6, '0')) / 1e6;
}

const providers = await testProviders();
const dialects: ('sqlite' | 'postgresql' | 'mysql')[] = providers.includes('postgresql') ? ['sqlite', 'postgresql'] : ['sqlite'];
if (await mysqlAvailable()) dialects.push('mysql');

/** JSON without its `timestamp` member, per engine. */
const STRIP = {
  sqlite: `json_remove(event_data, '$.timestamp')`,
  postgresql: `event_data - 'timestamp'`,
  mysql: `JSON_REMOVE(event_data, '$.timestamp')`,
};

describe.each(dialects)('naive local times in %s, written in Europe/Berlin', (dialect) => {
  const kind: AdkFixtureKind = { family: 'py-db', dialect, clock: 'local', localZone: ZONE };
  let store: AdkSessionStore;
  let locator: string;
  let remove: () => Promise<void>;

  beforeAll(async () => {
    const written = await writeAdkFixture(kind, sessions(true));
    ({ locator, remove } = written);
    // Events written without the float timestamp in their JSON: only the column (and the zone's rule) can say when.
    const db = await openAgentDb(locator);
    try {
      await db.run(`UPDATE events SET event_data = ${STRIP[dialect]} WHERE session_id = 'no-stamp'`);
    } finally {
      await db.close();
    }
    store = await openAdkStore(locator);
  }, 60_000);

  afterAll(async () => {
    await store?.close();
    await remove?.();
  });

  it('learns a zone with Berlin’s rule from rows of both seasons, whatever this machine’s zone', () => {
    // Any zone on the EU rule explains them (Africa/Ceuta comes first alphabetically).
    expect(store.info.description).toMatch(/events zone [\w/]+, learnt from 6 stored rows in 2 offsets/);
  });

  it('reads every event at its true instant, in both seasons and in the repeated hour', async () => {
    const times = async (userId: string, sessionId: string) =>
      (await store.getSession({ appName: APP, userId, sessionId }))?.events.map((item) => item.timestamp);
    expect(await times('alice', 'winter')).toEqual([WINTER, WINTER + 60]);
    expect(await times('alice', 'summer')).toEqual([SUMMER - 30, SUMMER]);
    expect(await times('alice', 'no-stamp')).toEqual([WINTER + 1, SUMMER - 86_400]);
    // Both rows hold 02:30:00.125; each one's own JSON timestamp says which 02:30 it was.
    expect(await times('bob', 'autumn')).toEqual([FOLD_FIRST, FOLD_SECOND]);
    const summer = await store.getSessionSummary({ appName: APP, userId: 'alice', sessionId: 'summer' });
    expect(summer?.lastUpdateTime).toBe(SUMMER);
  });

  it('stores an append of another season at the wall time adk-python gives that instant', async () => {
    const ref = { appName: APP, userId: 'alice', sessionId: 'winter' };
    await store.append(ref, { author: 'support', id: 'late', timestamp: APPEND, actions: { stateDelta: { step: 3 } } });
    const db = await openAgentDb(locator);
    try {
      const text = dialect === 'postgresql' ? 'timestamp::text' : 'timestamp';
      const [row] = await db.all(`SELECT ${text} AS ts FROM events WHERE id = 'late'`);
      // datetime.fromtimestamp(APPEND) in Berlin, and back: naive.timestamp() there is APPEND again.
      expect(wallSeconds(String(row?.ts))).toBeCloseTo(wallSeconds(naiveInZone(APPEND, ZONE)), 6);
    } finally {
      await db.close();
    }
    const session = await store.getSession(ref);
    expect(session?.events.at(-1)?.timestamp).toBe(APPEND);
    expect(session?.lastUpdateTime).toBe(APPEND);
  });
});

describe('a store whose rows show one season only', () => {
  it('encodes by the zone the operator names (?zone=), not by the one offset it saw', async () => {
    const written = await writeAdkFixture({ family: 'py-db', dialect: 'sqlite', clock: 'local', localZone: ZONE }, sessions(false));
    const opened: AdkSessionStore[] = [];
    try {
      const guessed = await openAdkStore(written.locator);
      opened.push(guessed);
      expect(guessed.info.description).toMatch(/events UTC\+02:00, learnt from 2 stored rows/);
      const named = await openAdkStore(`${written.locator}?zone=${ZONE}`);
      opened.push(named);
      expect(named.info.description).toContain(`events zone ${ZONE}`);
      const ref = { appName: APP, userId: 'alice', sessionId: 'summer' };
      await named.append(ref, { author: 'support', id: 'late', timestamp: APPEND });
      const db = await openAgentDb(written.locator);
      try {
        const [row] = await db.all(`SELECT timestamp AS ts FROM events WHERE id = 'late'`);
        expect(String(row?.ts)).toBe(naiveInZone(APPEND, ZONE));
      } finally {
        await db.close();
      }
    } finally {
      for (const store of opened) await store.close();
      await written.remove();
    }
  });

  it('takes ?zone= off the location before connecting, and refuses a zone it does not know', () => {
    expect(storeOptionsOf('/data/session.db?zone=Europe%2FBerlin')).toEqual({ location: '/data/session.db', zone: ZONE });
    expect(storeOptionsOf('postgresql://u@h/db?sslmode=disable&zone=Europe/Berlin')).toEqual({
      location: 'postgresql://u@h/db?sslmode=disable',
      zone: ZONE,
    });
    expect(storeOptionsOf('postgresql://u@h/db?zone=UTC&sslmode=disable')).toEqual({
      location: 'postgresql://u@h/db?sslmode=disable',
      zone: 'UTC',
    });
    expect(() => storeOptionsOf('/data/session.db?zone=Mars/Olympus')).toThrow(/not a time zone/);
  });
});
