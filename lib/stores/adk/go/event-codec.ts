// adk-go events (session/database/storage_session.go): one column per field,
// each JSON column `json.Marshal` of the Go value (camelCase, genai's JSON
// tags), `actions` the EventActions as JSON bytes. Statehouse shows them in
// ADK's camelCase shape and writes them back column by column.
import type { Param, Row } from '../agent-db';
import { columnEvent } from '../base/column-event';
import { readJson, UnreadableValueError } from '../base/unreadable';
import type { Event, JsonValue } from '../../../session-service/types';

type Obj = Record<string, unknown>;
const isObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The JSON columns besides `actions`, by column, with the Event field each holds. */
export const GO_JSON_COLUMNS = {
  long_running_tool_ids_json: 'longRunningToolIds',
  routes_json: 'routes',
  output_json: 'output',
  node_info_json: 'nodeInfo',
  requested_input_json: 'requestedInput',
  content: 'content',
  grounding_metadata: 'groundingMetadata',
  custom_metadata: 'customMetadata',
  usage_metadata: 'usageMetadata',
  citation_metadata: 'citationMetadata',
} as const;

/** Nullable text columns (`*string`: an empty string is stored as NULL). */
export const GO_TEXT_COLUMNS = {
  branch: 'branch',
  isolation_scope: 'isolationScope',
  error_code: 'errorCode',
  error_message: 'errorMessage',
} as const;

/** Flags (`*bool`, always stored). */
export const GO_FLAG_COLUMNS = { partial: 'partial', turn_complete: 'turnComplete', interrupted: 'interrupted' } as const;

/** A BLOB/bytea/LONGBLOB value (Buffer) or text, as text. */
function text(raw: unknown): unknown {
  return Buffer.isBuffer(raw) ? raw.toString('utf8') : raw;
}

/** A stored flag: SQLite numeric 0/1, PostgreSQL boolean, MySQL tinyint. */
function flag(raw: unknown): boolean {
  return raw === true || raw === 1 || raw === '1' || raw === 't';
}

/** A row of `events` (the columns the schema has) as the Event Statehouse shows. */
export function decodeGoEvent(row: Row, timestamp: number): Event {
  // dynamicJSON.Scan refuses JSON that is not valid, and Get then fails the whole session: here the event is marked.
  const actionsText = text(row.actions);
  const actions = actionsText === null || actionsText === undefined || actionsText === '' ? {} : readJson(actionsText, 'actions');
  if (!isObject(actions)) throw new UnreadableValueError('actions', actionsText, 'EventActions must be a JSON object');
  const { stateDelta, artifactDelta, requestedToolConfirmations, ...rest } = actions;
  const event = columnEvent(row, timestamp, rest, { stateDelta, artifactDelta, requestedToolConfirmations });
  for (const [column, field] of Object.entries(GO_JSON_COLUMNS)) {
    const raw = text(row[column]);
    if (raw === null || raw === undefined || raw === '') continue;
    const value = readJson(raw, column);
    if (value !== null) (event as Record<string, unknown>)[field] = value;
  }
  for (const [column, field] of Object.entries(GO_TEXT_COLUMNS)) {
    const raw = row[column];
    if (typeof raw === 'string' && raw !== '') event[field] = raw;
  }
  for (const [column, field] of Object.entries(GO_FLAG_COLUMNS)) if (flag(row[column])) event[field] = true;
  return event;
}

/** encoding/json's string escaping: `<`, `>`, `&`, U+2028 and U+2029 as \u escapes (its HTML-safe default). */
function goString(value: string): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * `json.Marshal` of a decoded value: a Go map (`map[string]any`, which is
 * what every map ADK's Go types hold decodes to) writes its keys sorted;
 * struct fields are given here in the order Go declares them.
 */
export function goJson(value: unknown, structOrder?: readonly string[]): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return goString(value);
  if (typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => goJson(item)).join(',')}]`;
  const entries = Object.entries(value as Obj).filter(([, item]) => item !== undefined);
  const order = structOrder ?? [];
  entries.sort(([a], [b]) => {
    const ia = order.indexOf(a);
    const ib = order.indexOf(b);
    if (ia !== -1 || ib !== -1) return (ia === -1 ? Infinity : ia) - (ib === -1 ? Infinity : ib);
    return a < b ? -1 : a > b ? 1 : 0;
  });
  return `{${entries.map(([key, item]) => `${goString(key)}:${goJson(item)}`).join(',')}}`;
}

/** EventActions.MarshalJSON (session/session.go): the embedded fields first, then stateDelta and artifactDelta, each only when set. */
const ACTIONS_ORDER = ['requestedToolConfirmations', 'skipSummarization', 'transferToAgent', 'escalate', 'stateDelta', 'artifactDelta'];

/** The omitempty rules of EventActions: a false flag, an empty string or map is left out. */
function goActions(actions: Event['actions']): Obj {
  const out: Obj = {};
  const confirmations = actions.requestedToolConfirmations;
  if (isObject(confirmations) && Object.keys(confirmations).length > 0) out.requestedToolConfirmations = confirmations;
  if (actions.skipSummarization === true) out.skipSummarization = true;
  if (typeof actions.transferToAgent === 'string' && actions.transferToAgent !== '') out.transferToAgent = actions.transferToAgent;
  if (actions.escalate === true) out.escalate = true;
  out.stateDelta = actions.stateDelta ?? {};
  out.artifactDelta = actions.artifactDelta ?? {};
  return out;
}

/** Every column createStorageEvent fills, by column name (JSON columns as text, NULL when Go leaves them nil). */
export function encodeGoEvent(event: Event): Record<string, Param> {
  const columns: Record<string, Param> = { actions: goJson(goActions(event.actions), ACTIONS_ORDER) };
  for (const [column, field] of Object.entries(GO_JSON_COLUMNS)) {
    const value = event[field] as JsonValue | undefined;
    const empty =
      value === undefined ||
      value === null ||
      (Array.isArray(value) && value.length === 0) ||
      (field === 'customMetadata' && isObject(value) && Object.keys(value).length === 0);
    columns[column] = empty ? null : goJson(value, field === 'content' ? ['parts', 'role'] : undefined);
  }
  for (const [column, field] of Object.entries(GO_TEXT_COLUMNS)) {
    const value = event[field];
    columns[column] = typeof value === 'string' && value !== '' ? value : null;
  }
  for (const [column, field] of Object.entries(GO_FLAG_COLUMNS)) columns[column] = event[field] === true ? 1 : 0;
  return columns;
}
