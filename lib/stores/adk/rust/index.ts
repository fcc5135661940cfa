// adk-rust's SQL session stores (zavora-ai/adk-rust v2.0.0, 51aabdbe,
// adk-session/src/sqlite.rs and postgres.rs). See docs/adk-stores.md, "adk-rust".
import type { AgentQuery, Row } from '../agent-db';
import { CannotReadStoreError } from '../detect';
import { unionDelta } from '../base/replay';
import { readObject } from '../base/unreadable';
import type { AdkFamily, FamilyCodec, FamilyMatch } from '../family';
import { adkLayout } from '../layout';
import { hasColumns, type SchemaInfo } from '../schema';
import { decodeRustEvent, rustDeltaSpelling } from './event-codec';
import { adkRustTime } from './time';
import { adkRustWrites } from './writes';
import { scopeOfKey } from '../../../session-service/scope';
import type { StateRecord } from '../../../session-service/types';

/** migration.rs / sqlite.rs `REGISTRY_TABLE`. */
export const RUST_REGISTRY_TABLE = '_adk_session_migrations';

export const ADK_RUST_LAYOUT = adkLayout({
  sessionId: 'session_id',
  createTime: 'created_at',
  sessionUpdateTime: 'updated_at',
  tierUpdateTime: 'updated_at',
  eventColumns: ['id', 'invocation_id', 'branch', 'author', 'timestamp', 'llm_response', 'actions', 'long_running_tool_ids'],
  // serde_json of EventActions: state_delta keys appear as JSON strings.
  searchText: 'actions',
});

function detect(schema: SchemaInfo): FamilyMatch | null {
  // adk-rust has SQLite and PostgreSQL services only.
  if (schema.dialect === 'mysql') return null;
  const tables =
    hasColumns(schema, 'sessions', ['app_name', 'user_id', 'session_id', 'state', 'created_at', 'updated_at']) &&
    hasColumns(schema, 'events', [
      'id',
      'app_name',
      'user_id',
      'session_id',
      'invocation_id',
      'branch',
      'author',
      'timestamp',
      'llm_response',
      'actions',
      'long_running_tool_ids',
    ]) &&
    hasColumns(schema, 'app_states', ['app_name', 'state', 'updated_at']) &&
    hasColumns(schema, 'user_states', ['app_name', 'user_id', 'state', 'updated_at']);
  if (!tables) return null;
  const times = schema.dialect === 'sqlite' ? 'RFC 3339 text' : 'timestamptz';
  const registry = schema.tables.has(RUST_REGISTRY_TABLE)
    ? `migrations in ${RUST_REGISTRY_TABLE}`
    : 'no migration registry (pre-registry release)';
  return {
    version: '1',
    description: `adk-rust ${schema.dialect === 'sqlite' ? 'SqliteSessionService' : 'PostgresSessionService'} (schema v1, ${registry}): ${times}, events as llm_response/actions JSON columns`,
  };
}

/**
 * sessions.state holds the merged snapshot Rust's append wrote (session
 * keys plus `app:`/`user:` copies); the session tier is its unprefixed keys,
 * as append_event reads it (`extract_state_deltas(&existing_state)`).
 */
function decodeState(raw: unknown): StateRecord {
  const state: StateRecord = {};
  for (const [key, item] of Object.entries(readObject(raw, 'state'))) if (scopeOfKey(key).scope === 'session') state[key] = item;
  return state;
}

async function open(q: AgentQuery, schema: SchemaInfo): Promise<FamilyCodec> {
  if (schema.tables.has(RUST_REGISTRY_TABLE)) {
    const [row] = await q.all(`SELECT MAX(version) AS v FROM ${RUST_REGISTRY_TABLE}`);
    const version = Number(row?.v ?? 0);
    // migration.rs: a database past the compiled-in steps is refused ("schema version mismatch").
    if (version > 1) {
      throw new CannotReadStoreError(
        `This adk-rust session database is at schema v${version} (${RUST_REGISTRY_TABLE}); Statehouse knows v1, the schema of adk-rust 2.0. A newer adk-rust changed its tables.`,
      );
    }
  }
  const time = adkRustTime();
  return {
    layout: ADK_RUST_LAYOUT,
    time,
    decodeState,
    decodeEvent: (row: Row) => decodeRustEvent(row, time.decode(row.timestamp, 'event')),
    deltaSpelling: rustDeltaSpelling,
    // state_utils: `new_app_state.extend(app_delta)`.
    applyDelta: unionDelta,
    // append_event takes no loaded copy: it reads the rows in its transaction and never refuses.
    isStale: () => false,
    writes: adkRustWrites(schema.dialect),
  };
}

export const adkRustFamily: AdkFamily = {
  id: 'adk-rust',
  label: 'adk-rust session service',
  detect,
  open: (q, schema, _match: FamilyMatch) => open(q, schema),
};
