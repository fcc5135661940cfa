import { toNumber, toNumberOrNull } from './dialect';
import { decodeJson, setOwn } from '../../session-service/json';
import { distinctSpelling } from '../../session-service/json-spelling';
import type { ChangeSource, Event, JsonValue, Scope, StateChange, StateEntry, StateRecord } from '../../session-service/types';

export interface KeyValueRow {
  key: string;
  value: string;
}

export function recordOf(rows: KeyValueRow[]): StateRecord {
  const record: StateRecord = {};
  for (const row of rows) setOwn(record, row.key, decodeJson(row.value));
  return record;
}

export interface SourceColumns {
  actor: string | null;
  reason: string | null;
  time: unknown;
  source_user_id: string | null;
  source_session_id: string | null;
  event_id: string | null;
  event_seq: unknown;
}

export const SOURCE_COLUMNS = 'h.actor, h.reason, h.time, h.source_user_id, h.source_session_id, h.event_id, h.event_seq';

export function changeSource(row: SourceColumns): ChangeSource | null {
  if (row.actor === null) return null;
  return {
    actor: row.actor,
    reason: row.reason,
    time: toNumber(row.time),
    sourceUserId: row.source_user_id,
    sourceSessionId: row.source_session_id,
    eventId: row.event_id,
    eventSeq: toNumberOrNull(row.event_seq),
  };
}

export interface EntryRow extends SourceColumns, KeyValueRow {
  update_time: unknown;
}

export function stateEntry(row: EntryRow): StateEntry {
  const lastChange = changeSource(row);
  const written = distinctSpelling(row.value);
  return {
    key: row.key,
    value: decodeJson(row.value),
    ...(written === undefined ? {} : { written }),
    updateTime: toNumberOrNull(row.update_time) ?? lastChange?.time ?? 0,
    lastChange,
  };
}

export interface ChangeRow extends SourceColumns {
  id: unknown;
  app_name: string;
  scope: string;
  owner_user_id: string;
  owner_session_id: string;
  key: string;
  old_value: string | null;
  new_value: string | null;
}

function optionalJson(text: string | null): JsonValue | undefined {
  return text === null ? undefined : decodeJson(text);
}

export function stateChange(row: ChangeRow): StateChange {
  const source = changeSource(row);
  if (!source) throw new Error('history row without an actor');
  return {
    ...source,
    id: toNumber(row.id),
    appName: row.app_name,
    scope: row.scope as Scope,
    ownerUserId: row.owner_user_id,
    ownerSessionId: row.owner_session_id,
    key: row.key,
    oldValue: optionalJson(row.old_value),
    newValue: optionalJson(row.new_value),
  };
}

export function decodeEvent(data: string): Event {
  return JSON.parse(data) as Event;
}
