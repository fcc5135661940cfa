// Storage invariants of one app, checked straight in the database: what must
// hold after any sequence of appends, including one cut short by kill -9.
//  - each session's events are numbered 1..last_seq, without gaps, and its
//    revision counts them;
//  - every event has exactly one history row per key of its stored delta,
//    with the value the delta holds, and no temp: key was stored;
//  - every history row that names an event belongs to an event that exists;
//  - every tier (session, user, app) holds exactly the newest value its
//    history records for each key.
import { sqltag as sql } from '@prisma/client/runtime/client';
import { toNumber } from '../../lib/stores/native/dialect';
import { scopeOfKey } from '../../lib/session-service/scope';
import type { SqlExecutor } from '../../lib/db/sql';
import type { JsonValue } from '../../lib/session-service/types';

interface SessionRow {
  pk: unknown;
  user_id: string;
  id: string;
  revision: unknown;
  last_seq: unknown;
}
interface EventRow {
  session_pk: unknown;
  seq: unknown;
  id: string;
  data: string;
}
interface ChangeRow {
  id: unknown;
  scope: string;
  owner_user_id: string;
  owner_session_id: string;
  key: string;
  new_value: string | null;
  source_user_id: string | null;
  source_session_id: string | null;
  event_id: string | null;
  event_seq: unknown;
}
interface TierRow {
  owner: string;
  key: string;
  value: string;
}

export interface IntegrityReport {
  sessions: number;
  events: number;
  changes: number;
  /** Empty when every invariant holds; at most 20 listed. */
  problems: string[];
  problemCount: number;
}

const MAX_LISTED = 20;

function decode(text: string): { actions?: { stateDelta?: Record<string, JsonValue> }; id?: unknown } | null {
  try {
    return JSON.parse(text) as { actions?: { stateDelta?: Record<string, JsonValue> }; id?: unknown };
  } catch {
    return null;
  }
}

/** Checks every invariant for one app. Read it while nothing writes to the app (after a run, or after a crash). */
export async function checkIntegrity(client: SqlExecutor, appName: string): Promise<IntegrityReport> {
  const problems: string[] = [];
  const problem = (text: string) => {
    if (problems.length < MAX_LISTED) problems.push(text);
    problemCount += 1;
  };
  let problemCount = 0;

  const sessions = await client.$queryRaw<SessionRow[]>(
    sql`SELECT pk, user_id, id, revision, last_seq FROM sessions WHERE app_name = ${appName}`,
  );
  const events = await client.$queryRaw<EventRow[]>(
    sql`SELECT e.session_pk, e.seq, e.id, e.data FROM events e JOIN sessions s ON s.pk = e.session_pk
        WHERE s.app_name = ${appName} ORDER BY e.session_pk, e.seq`,
  );
  const changes = await client.$queryRaw<ChangeRow[]>(
    sql`SELECT id, scope, owner_user_id, owner_session_id, key, new_value, source_user_id, source_session_id, event_id, event_seq
        FROM state_changes WHERE app_name = ${appName} ORDER BY id`,
  );

  const sessionByPk = new Map(sessions.map((s) => [toNumber(s.pk), s]));
  const sessionKey = (userId: string, sessionId: string) => JSON.stringify([userId, sessionId]);
  const pkBySession = new Map(sessions.map((s) => [sessionKey(s.user_id, s.id), toNumber(s.pk)]));

  // 1. Sequence numbers and revisions.
  const seqsByPk = new Map<number, number[]>();
  for (const event of events) {
    const pk = toNumber(event.session_pk);
    seqsByPk.set(pk, [...(seqsByPk.get(pk) ?? []), toNumber(event.seq)]);
  }
  for (const session of sessions) {
    const seqs = seqsByPk.get(toNumber(session.pk)) ?? [];
    const lastSeq = toNumber(session.last_seq);
    const contiguous = seqs.length === lastSeq && seqs.every((seq, index) => seq === index + 1);
    if (!contiguous)
      problem(
        `session ${session.id}: last_seq ${lastSeq} but events numbered ${seqs.length ? `${seqs[0]}..${seqs.at(-1)} (${seqs.length})` : 'none'}`,
      );
    if (toNumber(session.revision) !== lastSeq)
      problem(`session ${session.id}: revision ${toNumber(session.revision)} but last_seq ${lastSeq}`);
  }

  // 2. Each event's history rows, exactly one per stored key.
  const changesOfEvent = new Map<string, ChangeRow[]>();
  for (const change of changes) {
    if (change.event_seq === null || change.event_seq === undefined) continue;
    const pk = pkBySession.get(sessionKey(change.source_user_id ?? '', change.source_session_id ?? ''));
    if (pk === undefined) continue; // from a session deleted since: its events went with it
    const key = JSON.stringify([pk, toNumber(change.event_seq)]);
    changesOfEvent.set(key, [...(changesOfEvent.get(key) ?? []), change]);
  }
  for (const event of events) {
    const pk = toNumber(event.session_pk);
    const seq = toNumber(event.seq);
    const where = `session ${sessionByPk.get(pk)?.id} event ${seq}`;
    const data = decode(event.data);
    if (!data) {
      problem(`${where}: data is not JSON`);
      continue;
    }
    if (data.id !== event.id) problem(`${where}: row id ${event.id} but data id ${String(data.id)}`);
    const delta = data.actions?.stateDelta ?? {};
    const rows = changesOfEvent.get(JSON.stringify([pk, seq])) ?? [];
    changesOfEvent.delete(JSON.stringify([pk, seq]));
    const keys = Object.keys(delta);
    if (rows.length !== keys.length) problem(`${where}: ${keys.length} keys in its delta but ${rows.length} history rows`);
    for (const prefixed of keys) {
      const { scope, key } = scopeOfKey(prefixed);
      if (scope === 'temp') {
        problem(`${where}: stored a temp: key (${prefixed})`);
        continue;
      }
      const row = rows.find((r) => r.scope === scope && r.key === key);
      if (!row) problem(`${where}: no history row for ${prefixed}`);
      else if (row.new_value !== JSON.stringify(delta[prefixed])) problem(`${where}: history of ${prefixed} holds ${row.new_value}`);
      else if (row.event_id !== event.id) problem(`${where}: history of ${prefixed} names event ${row.event_id}`);
    }
  }
  // 3. History rows naming events that do not exist.
  for (const [key, rows] of changesOfEvent)
    problem(`history rows ${rows.map((r) => toNumber(r.id)).join(', ')} name a missing event ${key}`);

  // 4. Tiers hold the newest value of their history.
  const newest = new Map<string, string | null>();
  for (const change of changes) {
    const owner = change.scope === 'session' ? sessionKey(change.owner_user_id, change.owner_session_id) : change.owner_user_id;
    newest.set(JSON.stringify([change.scope, owner, change.key]), change.new_value);
  }
  const tiers: [string, TierRow[]][] = [
    [
      'session',
      (
        await client.$queryRaw<(TierRow & { session_pk: unknown })[]>(
          sql`SELECT t.session_pk, t.key, t.value FROM session_state t JOIN sessions s ON s.pk = t.session_pk WHERE s.app_name = ${appName}`,
        )
      ).map((row) => {
        const session = sessionByPk.get(toNumber(row.session_pk));
        return { owner: sessionKey(session?.user_id ?? '', session?.id ?? ''), key: row.key, value: row.value };
      }),
    ],
    ['user', await client.$queryRaw<TierRow[]>(sql`SELECT user_id AS owner, key, value FROM user_state WHERE app_name = ${appName}`)],
    ['app', await client.$queryRaw<TierRow[]>(sql`SELECT '' AS owner, key, value FROM app_state WHERE app_name = ${appName}`)],
  ];
  const liveSessions = new Set(sessions.map((s) => sessionKey(s.user_id, s.id)));
  for (const [scope, rows] of tiers) {
    const seen = new Set<string>();
    for (const row of rows) {
      const id = JSON.stringify([scope, row.owner, row.key]);
      seen.add(id);
      if (newest.get(id) !== row.value) problem(`${scope} ${row.owner} ${row.key}: holds ${row.value}, its history says ${newest.get(id)}`);
    }
    for (const [id, value] of newest) {
      const [tierScope, owner] = JSON.parse(id) as [string, string];
      if (tierScope !== scope || value === null || seen.has(id)) continue;
      if (scope === 'session' && !liveSessions.has(owner)) continue; // deleted sessions take their tier along
      problem(`${id}: history says ${value} but the tier has no such key`);
    }
  }

  return { sessions: sessions.length, events: events.length, changes: changes.length, problems, problemCount };
}
