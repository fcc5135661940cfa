// Rows no ADK would write but an agent's database can hold (a hand edit, a
// crashed migration, another program, an attacker with write access): each
// case is a copy of the scenario's `alice/trip-paris` under the user
// `mallory`, with one column of one row replaced. The hostile-row suite
// checks that each stays local to its own session.
import { openAgentDb, type AgentDb, type Param } from '../../stores/adk/agent-db';
import type { AdkLayout } from '../../stores/adk/family';
import { ADK_GO_LAYOUT } from '../../stores/adk/go';
import { ADK_JS_LAYOUT } from '../../stores/adk/js';
import { PYTHON_LAYOUT } from '../../stores/adk/python/layout';
import { ADK_RUST_LAYOUT } from '../../stores/adk/rust';
import { readSchema } from '../../stores/adk/schema';
import { fixtureDialect, type AdkFixtureKind } from './registry';
import type { FixtureStore } from './stores';

export const HOSTILE_USER = 'mallory';
/** The scenario session every case copies. */
export const HOSTILE_SOURCE = { userId: 'alice', sessionId: 'trip-paris' } as const;

export interface HostileCase {
  /** The copied session's id. */
  name: string;
  /** Which row is changed: the session's own row, or its newest (`e3`) or middle (`e2`) event. */
  row: 'session' | 'e2' | 'e3';
  /** The layout's logical column (layout key) or a raw column name. */
  column: string;
  /** The value bound (or, as `{ sql }`, an SQL expression). */
  value: Param | { sql: string };
  /**
   * How the row shows: `marked` unreadable (the default), `unmarked` when
   * that ADK reads it too (a column it ignores, a far-future time), `either`
   * when that depends on the clock (year 9999 read at UTC-5 is year 10000).
   */
  shows?: 'unmarked' | 'either';
}

/** Nested arrays this deep (adk-python's own json.loads gives up near 1,000). */
export function deepJson(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

export function layoutOf(kind: AdkFixtureKind): AdkLayout {
  if (kind.family === 'adk-js') return ADK_JS_LAYOUT;
  if (kind.family === 'adk-go') return ADK_GO_LAYOUT;
  if (kind.family === 'adk-rust') return ADK_RUST_LAYOUT;
  return PYTHON_LAYOUT;
}

const PY_EVENT = (fields: string) =>
  `{"id":"e2","invocation_id":"inv-e2","author":"planner","timestamp":1767225602.5,"actions":{"state_delta":{}}${fields}}`;

/** The cases that apply to a kind of store: what its column types can hold. */
export function hostileCases(kind: AdkFixtureKind): HostileCase[] {
  const dialect = fixtureDialect(kind);
  const sqlite = dialect === 'sqlite';
  const cases: HostileCase[] = [];
  const add = (name: string, row: HostileCase['row'], column: string, value: HostileCase['value'], shows?: HostileCase['shows']) =>
    cases.push({ name, row, column, value, ...(shows ? { shows } : {}) });
  if (kind.family === 'py-sqlite' || kind.family === 'py-db') {
    // SqliteSessionService reads an event from its JSON alone; the timestamp column only orders them.
    const ignoresColumn = kind.family === 'py-sqlite' ? 'unmarked' : undefined;
    if (dialect === 'mysql') {
      // DATETIME(6) holds no text, but MariaDB's default sql_mode lets a zero date in; LONGTEXT holds anything.
      add('ts-zero', 'e3', 'timestamp', '0000-00-00 00:00:00');
      add('update-zero', 'session', 'update_time', '0000-00-00 00:00:00');
    }
    if (sqlite) {
      add('ts-garbage', 'e3', 'timestamp', 'garbage', ignoresColumn);
      add('ts-empty', 'e3', 'timestamp', '', ignoresColumn);
    }
    if (dialect !== 'postgresql') {
      add('data-invalid', 'e2', 'event_data', '{broken');
      add('data-empty', 'e2', 'event_data', '');
      add('data-nan', 'e2', 'event_data', PY_EVENT(',"usage_metadata":{"total_token_count":NaN}'));
      add('data-deep', 'e2', 'event_data', PY_EVENT(`,"custom_metadata":{"deep":${deepJson(100_000)}}`));
      add('state-broken', 'session', 'state', '{broken');
    } else {
      add('ts-infinity', 'e3', 'timestamp', { sql: "'infinity'" });
      add('data-deep', 'e2', 'event_data', PY_EVENT(`,"custom_metadata":{"deep":${deepJson(5_000)}}`));
      add('state-array', 'session', 'state', '[1, 2]');
      add('update-infinity', 'session', 'update_time', { sql: "'infinity'" });
    }
    add('data-json-null', 'e2', 'event_data', 'null');
    add('data-string', 'e2', 'event_data', '"just a string"');
    add('part-null', 'e2', 'event_data', PY_EVENT(',"content":{"role":"model","parts":[null,{"text":"after a null part"}]}'));
    add('content-string', 'e2', 'event_data', PY_EVENT(',"content":"not an object"'));
  }
  if (kind.family === 'py-sqlite') {
    add('ts-far-future', 'e3', 'timestamp', 253_402_300_799.999, 'unmarked');
    add('ts-1e300', 'e3', 'timestamp', 1e300, 'unmarked');
    add('update-1e300', 'session', 'update_time', 1e300);
    add('update-text', 'session', 'update_time', 'garbage');
  }
  if (kind.family === 'py-db') {
    add('ts-far-future', 'e3', 'timestamp', '9999-12-31 23:59:59.999999', 'either');
    add('data-sql-null', 'e2', 'event_data', null);
    if (sqlite) add('update-garbage', 'session', 'update_time', 'garbage');
  }
  if (kind.family === 'adk-js') {
    if (sqlite) {
      add('ts-garbage', 'e3', 'timestamp', 'garbage');
      add('data-invalid', 'e2', 'event_data', '{broken');
      add('state-broken', 'session', 'state', '{broken');
      add('update-1e300', 'session', 'update_time', 1e300);
    } else {
      add('ts-infinity', 'e3', 'timestamp', { sql: "'infinity'" });
      add('update-infinity', 'session', 'update_time', { sql: "'infinity'" });
    }
    add('data-json-null', 'e2', 'event_data', 'null');
    add('part-null', 'e2', 'event_data', '{"author":"planner","content":{"role":"model","parts":[null]},"actions":{}}');
    add('data-array', 'e2', 'event_data', '[1, 2, 3]');
  }
  if (kind.family === 'adk-rust') {
    if (sqlite) {
      add('ts-garbage', 'e3', 'timestamp', 'garbage');
      add('llm-invalid', 'e2', 'llm_response', '{broken');
      add('actions-invalid', 'e2', 'actions', '{broken');
      add('state-broken', 'session', 'state', '{broken');
      add('update-garbage', 'session', 'updated_at', 'garbage');
    } else {
      add('ts-infinity', 'e3', 'timestamp', { sql: "'infinity'" });
    }
    add('actions-null', 'e2', 'actions', 'null');
    add('part-null', 'e2', 'llm_response', '{"content":{"role":"model","parts":[null]}}');
    add('tool-ids-object', 'e2', 'long_running_tool_ids', '{"a":1}');
  }
  if (kind.family === 'adk-go') {
    if (sqlite) {
      add('ts-garbage', 'e3', 'timestamp', 'garbage');
      add('state-broken', 'session', 'state', '{broken');
      add('update-garbage', 'session', 'update_time', 'garbage');
    } else if (dialect === 'mysql') {
      add('ts-zero', 'e3', 'timestamp', '0000-00-00 00:00:00');
      add('update-zero', 'session', 'update_time', '0000-00-00 00:00:00');
    } else {
      add('ts-infinity', 'e3', 'timestamp', { sql: "'infinity'" });
      add('update-infinity', 'session', 'update_time', { sql: "'infinity'" });
    }
    // dynamicJSON.Scan refuses invalid JSON (and Get fails the whole session); the bytes of actions are json.Unmarshal'd.
    if (dialect !== 'postgresql') add('content-invalid', 'e2', 'content', '{broken');
    add('actions-invalid', 'e2', 'actions', '{broken');
    add('actions-null', 'e2', 'actions', 'null');
    add('part-null', 'e2', 'content', '{"parts":[null,{"text":"after a null part"}],"role":"model"}');
  }
  return cases;
}

/** Copies a session and its events (every column) to another user and id. */
async function copySession(db: AgentDb, layout: AdkLayout, tables: Map<string, Map<string, unknown>>, appName: string, to: string) {
  for (const [table, keys] of [
    ['sessions', layout.sessions],
    ['events', layout.events],
  ] as const) {
    const columns = [...(tables.get(table)?.keys() ?? [])];
    const user = keys.userId;
    const id = 'sessionId' in keys ? keys.sessionId : keys.id;
    const select = columns.map((name) => (name === user || name === id ? '?' : `"${name}"`));
    const params: Param[] = columns.flatMap((name) => (name === user ? [HOSTILE_USER] : name === id ? [to] : []));
    await db.run(
      `INSERT INTO "${table}" (${columns.map((name) => `"${name}"`).join(', ')}) SELECT ${select.join(', ')} FROM "${table}"
       WHERE "${keys.appName}" = ? AND "${user}" = ? AND "${id}" = ?`,
      [...params, appName, HOSTILE_SOURCE.userId, HOSTILE_SOURCE.sessionId],
    );
  }
}

/** Writes every case of this kind into the fixture's database (as the agent's owner would, outside any ADK). */
export async function writeHostileRows(
  fixture: Pick<FixtureStore, 'locator'>,
  kind: AdkFixtureKind,
  appName: string,
  only?: string[],
): Promise<HostileCase[]> {
  const cases = hostileCases(kind).filter((hostile) => !only || only.includes(hostile.name));
  const layout = layoutOf(kind);
  const db = await openAgentDb(fixture.locator);
  try {
    const schema = await readSchema(db);
    for (const hostile of cases) {
      await copySession(db, layout, schema.tables, appName, hostile.name);
      const value = hostile.value;
      const set = typeof value === 'object' && value !== null ? value.sql : '?';
      const bound: Param[] = typeof value === 'object' && value !== null ? [] : [value];
      const s = layout.sessions;
      const e = layout.events;
      if (hostile.row === 'session') {
        await db.run(
          `UPDATE "${s.table}" SET "${hostile.column}" = ${set} WHERE "${s.appName}" = ? AND "${s.userId}" = ? AND "${s.id}" = ?`,
          [...bound, appName, HOSTILE_USER, hostile.name],
        );
      } else {
        await db.run(
          `UPDATE "${e.table}" SET "${hostile.column}" = ${set} WHERE "${e.appName}" = ? AND "${e.userId}" = ? AND "${e.sessionId}" = ? AND "${e.id}" = ?`,
          [...bound, appName, HOSTILE_USER, hostile.name, hostile.row],
        );
      }
    }
  } finally {
    await db.close();
  }
  return cases;
}
