// adk-js 2.0.0 DatabaseSessionService (@google/adk, MikroORM): the tables of
// dist/esm/sessions/db/schema.js, written the way database_session_service.js
// writes them. See docs/adk-stores.md, "adk-js".
import type { AgentQuery, Row } from '../agent-db';
import { unionDelta } from '../base/replay';
import type { AdkFamily, FamilyCodec, FamilyMatch } from '../family';
import { adkLayout } from '../layout';
import { columnType, hasColumns, type SchemaInfo } from '../schema';
import { decodeAdkJsEvent } from './event-codec';
import { adkJsTime } from './time';
import { adkJsWrites } from './writes';
import { readObject } from '../base/unreadable';

/** schema.js SCHEMA_VERSION_1_JSON; operations.js refuses any other value ("ADK Database schema version <v> is not compatible."). */
export const ADK_JS_SCHEMA_VERSION = '1';

// The names are adk-python's; event_data is JSON.stringify of the snake_case event, so a state key appears as its JSON string.
export const ADK_JS_LAYOUT = adkLayout();

/**
 * MikroORM's DDL for those entities, as the columns show it: `json` state
 * and `datetime` times on SQLite (adk-python declares TEXT and DATETIME);
 * on PostgreSQL `timestamptz` times and a NOT NULL event_data (adk-python's
 * event_data is nullable, its times `timestamp` or, migrated, timestamptz).
 */
function isAdkJsSchema(schema: SchemaInfo): boolean {
  if (!hasColumns(schema, 'sessions', ['id', 'app_name', 'user_id', 'state', 'create_time', 'update_time'])) return false;
  if (!hasColumns(schema, 'events', ['id', 'app_name', 'user_id', 'session_id', 'invocation_id', 'timestamp', 'event_data'])) return false;
  if (!hasColumns(schema, 'app_states', ['app_name', 'state', 'update_time'])) return false;
  if (!hasColumns(schema, 'user_states', ['app_name', 'user_id', 'state', 'update_time'])) return false;
  if (schema.dialect === 'sqlite') {
    return columnType(schema, 'sessions', 'state') === 'json' && columnType(schema, 'sessions', 'update_time') === 'datetime';
  }
  return (
    schema.tables.get('events')?.get('event_data')?.notNull === true &&
    columnType(schema, 'sessions', 'update_time') === 'timestamp with time zone' &&
    columnType(schema, 'events', 'event_data') === 'jsonb'
  );
}

function detect(schema: SchemaInfo): FamilyMatch | null {
  if (!isAdkJsSchema(schema)) return null;
  const version = schema.metadata?.get('schema_version');
  const times = schema.dialect === 'sqlite' ? 'INTEGER milliseconds' : 'timestamptz';
  const description = `adk-js DatabaseSessionService (schema ${version ?? 'unversioned'}): ${times}, snake_case event_data with millisecond timestamps`;
  if (version === ADK_JS_SCHEMA_VERSION) return { version, description };
  return {
    version: version ?? 'none',
    description,
    readOnlyReason:
      version === undefined
        ? 'adk_internal_metadata has no schema_version; adk-js writes "1" on its first start, Statehouse never does.'
        : `schema_version is "${version}": adk-js 2.0 itself refuses it ("ADK Database schema version ${version} is not compatible.").`,
  };
}

function open(_q: AgentQuery, schema: SchemaInfo, match: FamilyMatch): Promise<FamilyCodec> {
  const time = adkJsTime(schema.dialect);
  return Promise.resolve({
    layout: ADK_JS_LAYOUT,
    time,
    decodeState: (raw) => readObject(raw, 'state'),
    decodeEvent: (row: Row) =>
      decodeAdkJsEvent(readObject(row.event_data, 'event_data'), {
        id: String(row.id),
        invocationId: String(row.invocation_id ?? ''),
        timestampMs: time.decode(row.timestamp, 'event') * 1000,
      }),
    // database_session_service.js: `{ ...appStateModel.state, ...appDelta }`.
    applyDelta: unionDelta,
    // appendEvent never refuses: when storage's update_time is newer than the
    // copy's lastUpdateTime it reloads state and events into the copy, then appends.
    isStale: () => false,
    writes: match.readOnlyReason ? undefined : adkJsWrites(schema.dialect),
  });
}

export const adkJsFamily: AdkFamily = {
  id: 'adk-js-db',
  label: 'adk-js DatabaseSessionService',
  detect,
  open,
};
