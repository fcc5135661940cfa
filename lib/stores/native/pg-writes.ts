// PostgreSQL writes in one round trip: an append and a session create are
// each one call of a PL/pgSQL function (migration
// 20261125000131_one_round_trip_writes; each tier written by the one
// statehouse_write_tier of 20261125180000_tier_latest_change) that runs what
// tier-writes.ts sends statement by statement, with the same locks in the
// same order. A call outside an explicit transaction is its own transaction,
// so no BEGIN and COMMIT either: one round trip where an append took seven.
import { sqltag as sql } from '@prisma/client/runtime/client';
import { toNumber } from './dialect';
import { stateOfRows, type TierRow } from './session-snapshot';
import { ownEntries } from '../../session-service/json';
import { encodeSpelled, type TierSpellings, type ValueSpellings } from '../../session-service/value-spelling';
import type { ScopedDelta } from '../../session-service/scope';
import type { SessionRef } from '../../session-service/store';
import type { Event, StateRecord } from '../../session-service/types';
import type { SqlExecutor } from '../../db/sql';
import { prepared } from '../../db/prepared';

/**
 * One tier's changes as the functions take them: `[[key, JSON text or null], ...]`
 * in key order (the order existing rows are locked in); null removes the key.
 * Values travel as JSON strings so that the stored text is exactly what the
 * service encoded. Null when there is nothing to write.
 */
export function tierChangesJson(record: StateRecord, spellings?: ValueSpellings): string | null {
  const entries = ownEntries(record);
  if (entries.length === 0) return null;
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(entries.map(([key, value]) => [key, value === undefined ? null : encodeSpelled(value, spellings?.get(key))]));
}

export type AppendOutcome = { outcome: 'ok'; revision: number; seq: number } | { outcome: 'stale' | 'missing' };

/** Stores the event at `expectedRevision` (any revision when undefined) with its delta, in one call. */
export async function appendInOneCall(
  client: SqlExecutor,
  ref: SessionRef,
  expectedRevision: number | undefined,
  { stored, data, split, spelled }: { stored: Event; data: string; split: ScopedDelta; spelled: TierSpellings },
  actor: string,
): Promise<AppendOutcome> {
  const rows = await client.$queryRaw<{ outcome: string; new_revision: unknown; new_seq: unknown }[]>(
    prepared(sql`SELECT outcome, new_revision, new_seq FROM statehouse_append(
          CAST(${ref.appName} AS TEXT), CAST(${ref.userId} AS TEXT), CAST(${ref.sessionId} AS TEXT),
          CAST(${expectedRevision ?? null} AS INTEGER),
          CAST(${stored.id} AS TEXT), CAST(${stored.invocationId} AS TEXT), CAST(${stored.author} AS TEXT),
          CAST(${stored.timestamp} AS DOUBLE PRECISION), CAST(${data} AS TEXT), CAST(${actor} AS TEXT),
          CAST(${tierChangesJson(split.app, spelled.app)} AS JSON), CAST(${tierChangesJson(split.user, spelled.user)} AS JSON),
          CAST(${tierChangesJson(split.session, spelled.session)} AS JSON))`),
  );
  const row = rows[0];
  if (row?.outcome === 'ok') return { outcome: 'ok', revision: toNumber(row.new_revision), seq: toNumber(row.new_seq) };
  return { outcome: row?.outcome === 'stale' ? 'stale' : 'missing' };
}

/** Creates the session with its initial state in one call: its merged state, or null when the id is taken. */
export async function createInOneCall(
  client: SqlExecutor,
  ref: SessionRef,
  now: number,
  split: ScopedDelta,
  spelled: TierSpellings = {},
): Promise<StateRecord | null> {
  const rows = await client.$queryRaw<TierRow[]>(
    prepared(sql`SELECT part, key, value FROM statehouse_create(
          CAST(${ref.appName} AS TEXT), CAST(${ref.userId} AS TEXT), CAST(${ref.sessionId} AS TEXT),
          CAST(${now} AS DOUBLE PRECISION), CAST(${'session:create'} AS TEXT),
          CAST(${tierChangesJson(split.app, spelled.app)} AS JSON), CAST(${tierChangesJson(split.user, spelled.user)} AS JSON),
          CAST(${tierChangesJson(split.session, spelled.session)} AS JSON))`),
  );
  if (rows.some((row) => toNumber(row.part) < 0)) return null;
  return stateOfRows(rows);
}
