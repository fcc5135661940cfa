// adk-go's session/database service (google/adk-go@0a51e153:
// session/database/storage_session.go, gorm_datatypes.go, service.go): GORM
// AutoMigrate tables named as adk-python's, but events keep one column per
// field (actions as JSON bytes), keys are `text` (SQLite, PostgreSQL) or
// `varchar(191)` (MySQL), state maps are JSON text (JSONB on PostgreSQL,
// LONGTEXT on MySQL) and times time.Time with precision 6 (time.ts).
import type { Row } from '../agent-db';
import type { AdkFamily, FamilyCodec, FamilyMatch } from '../family';
import { adkLayout } from '../layout';
import { unionDelta } from '../base/replay';
import { readObject } from '../base/unreadable';
import { column, hasColumns, type SchemaInfo } from '../schema';
import { decodeGoEvent, GO_FLAG_COLUMNS, GO_JSON_COLUMNS, GO_TEXT_COLUMNS } from './event-codec';
import { adkGoTime, GO_UTC, parseGoTime, type GoZone } from './time';
import { adkGoWrites } from './writes';

const EVENT_KEYS = ['id', 'app_name', 'user_id', 'session_id', 'invocation_id', 'author', 'actions', 'timestamp'];
/** Columns every adk-go release with this service has; newer ones (routes_json, isolation_scope, ...) are read when present. */
const EVENT_CORE = [...EVENT_KEYS, 'content', 'long_running_tool_ids_json', 'branch', 'partial', 'turn_complete'];
const EVENT_OPTIONAL = [...Object.keys(GO_JSON_COLUMNS), ...Object.keys(GO_TEXT_COLUMNS), ...Object.keys(GO_FLAG_COLUMNS)];

// The table and column names are adk-python's; events are read column by column (no single JSON column to search).
export const ADK_GO_LAYOUT = adkLayout({ eventColumns: EVENT_KEYS, searchText: null });

const DRIVERS = { sqlite: 'SQLite (glebarez/sqlite)', postgresql: 'PostgreSQL', mysql: 'MySQL/MariaDB' } as const;

function detect(schema: SchemaInfo): FamilyMatch | null {
  if (!hasColumns(schema, 'sessions', ['app_name', 'user_id', 'id', 'state', 'create_time', 'update_time'])) return null;
  if (!hasColumns(schema, 'events', EVENT_CORE) || hasColumns(schema, 'events', ['event_data'])) return null;
  if (!hasColumns(schema, 'app_states', ['app_name', 'state', 'update_time'])) return null;
  if (!hasColumns(schema, 'user_states', ['app_name', 'user_id', 'state', 'update_time'])) return null;
  // adk-python's v0 tables have the same event columns but SQLAlchemy's VARCHAR(128) keys; GORM's are text or varchar(191).
  if (column(schema, 'sessions', 'id')?.maxLength === 128) return null;
  const times = schema.dialect === 'sqlite' ? 'time.Time.String() text' : schema.dialect === 'mysql' ? 'UTC datetime(6)' : 'timestamptz';
  return {
    version: 'gorm',
    description: `adk-go session/database (GORM, ${DRIVERS[schema.dialect]}): ${times}, one column per event field, actions as JSON bytes`,
  };
}

/** The zone a SQLite store's writer prints its times in, from its newest event (Go writes its local zone). */
async function writerZone(q: Parameters<AdkFamily['open']>[0]): Promise<GoZone> {
  const [row] = await q.all('SELECT "timestamp" AS t FROM events ORDER BY "timestamp" DESC LIMIT 1');
  try {
    return (row ? parseGoTime(row.t).zone : null) ?? GO_UTC;
  } catch {
    return GO_UTC;
  }
}

export const adkGoFamily: AdkFamily = {
  id: 'adk-go-db',
  label: 'adk-go session/database',
  detect,
  async open(q, schema) {
    const present = [...EVENT_KEYS, ...EVENT_OPTIONAL.filter((name) => hasColumns(schema, 'events', [name]))];
    const zone = schema.dialect === 'sqlite' ? await writerZone(q) : GO_UTC;
    const time = adkGoTime(schema.dialect, zone);
    const codec: FamilyCodec = {
      layout: { ...ADK_GO_LAYOUT, events: { ...ADK_GO_LAYOUT.events, columns: [...new Set(present)] } },
      time,
      clockDescription:
        schema.dialect === 'sqlite'
          ? `times written in ${zone.name} (UTC${zone.offset >= 0 ? '+' : '-'}${Math.abs(zone.offset) / 3600})`
          : undefined,
      // stateMap.Scan: NULL or an empty value is an empty map.
      decodeState: (raw) => (raw === null || raw === undefined || raw === '' ? {} : readObject(raw, 'state')),
      decodeEvent: (row: Row) => decodeGoEvent(row, time.decode(row.timestamp, 'event')),
      // maps.Copy(storage.State, delta).
      applyDelta: unionDelta,
      // applyEvent: `storageUpdateTime > sessionUpdateTime` (UnixMicro) is a stale session.
      isStale: (stored, loaded) => stored > loaded,
      writes: adkGoWrites(schema.dialect, time, [...new Set(present)]),
    };
    return codec;
  },
};
