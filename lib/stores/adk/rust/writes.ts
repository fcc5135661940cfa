// Writes as adk-rust v2.0.0's SqliteSessionService / PostgresSessionService
// make them (adk-session/src/sqlite.rs, postgres.rs), statement for
// statement, in the caller's one transaction:
//  append_event_for_identity, empty delta: `UPDATE sessions SET updated_at = ?`
//    then `INSERT INTO events (...)`.
//  otherwise: both tier rows upserted with their merged state and
//    `updated_at = event.timestamp` (even a tier the delta does not touch),
//    `UPDATE sessions SET state = <merged snapshot, prefixed>, updated_at = ?`,
//    then the event.
//  create: both tiers upserted, then `INSERT INTO sessions` with the merged snapshot.
// Rust has no tier edit; Statehouse's edits write the tier row as its append does.
import type { AgentDialect, AgentQuery, Param } from '../agent-db';
import type { AppendWrite, CreateWrite, FamilyWrites, TierWrite, TierWritten } from '../family';
import { compactJson } from '../python/json-dumps';
import type { SpelledJson } from '../../../session-service/json-spelling';
import type { ValueSpellings } from '../../../session-service/value-spelling';
import { encodeRustEvent } from './event-codec';
import { adkRustTime } from './time';
import { KEY_PREFIX_APP, KEY_PREFIX_USER, mergeState } from '../../../session-service/scope';
import type { SessionRef } from '../../../session-service/store';
import type { Event, StateRecord } from '../../../session-service/types';

/** The written texts of the session row's merged snapshot: its own keys, and the tiers' under their prefixes. */
function snapshotWritten(written: TierWritten | undefined): SpelledJson | undefined {
  const entries = new Map<string, SpelledJson>();
  const add = (tier: SpelledJson | undefined, prefix: string) => {
    if (tier?.kind === 'object') for (const [key, spelled] of tier.entries) entries.set(prefix + key, spelled);
  };
  add(written?.session, '');
  add(written?.app, KEY_PREFIX_APP);
  add(written?.user, KEY_PREFIX_USER);
  return entries.size > 0 ? { kind: 'object', entries } : undefined;
}

export function adkRustWrites(dialect: AgentDialect): FamilyWrites {
  const time = adkRustTime();
  // serde_json::to_string of HashMap<String, Value>: a float stays a float (WriteContext.written).
  const json = (state: StateRecord, written?: SpelledJson) => compactJson(state, written);
  // sqlite.rs: "INSERT OR REPLACE INTO app_states ..."; postgres.rs: "... ON CONFLICT (app_name) DO UPDATE SET state = $2, updated_at = $3".
  const upsertApp =
    dialect === 'sqlite'
      ? 'INSERT OR REPLACE INTO app_states (app_name, state, updated_at) VALUES (?, ?, ?)'
      : 'INSERT INTO app_states (app_name, state, updated_at) VALUES (?, ?, ?) ON CONFLICT (app_name) DO UPDATE SET state = EXCLUDED.state, updated_at = EXCLUDED.updated_at';
  const upsertUser =
    dialect === 'sqlite'
      ? 'INSERT OR REPLACE INTO user_states (app_name, user_id, state, updated_at) VALUES (?, ?, ?, ?)'
      : 'INSERT INTO user_states (app_name, user_id, state, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (app_name, user_id) DO UPDATE SET state = EXCLUDED.state, updated_at = EXCLUDED.updated_at';

  async function upsertTiers(
    q: AgentQuery,
    { appName, userId, written }: { appName: string; userId: string; written: TierWritten | undefined },
    app: StateRecord,
    user: StateRecord,
    at: Param,
  ) {
    await q.run(upsertApp, [appName, json(app, written?.app), at]);
    await q.run(upsertUser, [appName, userId, json(user, written?.user), at]);
  }

  // append_event_for_identity's INSERT INTO events: serde's columns, the timestamp as chrono writes it.
  async function insertEvent(q: AgentQuery, ref: SessionRef, event: Event, deltaSpellings?: ValueSpellings): Promise<void> {
    const columns = encodeRustEvent(event, deltaSpellings);
    await q.run(
      'INSERT INTO events (id, app_name, user_id, session_id, invocation_id, branch, author, timestamp, llm_response, actions, long_running_tool_ids) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [
        event.id,
        ref.appName,
        ref.userId,
        ref.sessionId,
        event.invocationId,
        event.branch ?? '',
        event.author,
        time.encode(event.timestamp, 'event'),
        columns.llmResponse,
        columns.actions,
        columns.longRunningToolIds,
      ],
    );
  }

  return {
    // No row is locked before writing: with a delta both tier rows are upserted (app first), then the session row.
    lockedRows: (delta) =>
      Object.keys(delta.app).length + Object.keys(delta.user).length + Object.keys(delta.session).length > 0
        ? ['app', 'user', 'session']
        : ['session'],
    async append(q: AgentQuery, write: AppendWrite): Promise<void> {
      const { ref, event, delta } = write;
      const at = time.encode(event.timestamp, 'event');
      const key = [ref.appName, ref.userId, ref.sessionId];
      if (Object.keys(event.actions.stateDelta).length === 0) {
        await q.run('UPDATE sessions SET updated_at = ? WHERE app_name = ? AND user_id = ? AND session_id = ?', [at, ...key]);
      } else {
        const app = { ...write.app, ...delta.app };
        const user = { ...write.user, ...delta.user };
        await upsertTiers(q, { ...ref, written: write.written }, app, user, at);
        await q.run('UPDATE sessions SET state = ?, updated_at = ? WHERE app_name = ? AND user_id = ? AND session_id = ?', [
          json(mergeState(app, user, { ...write.session, ...delta.session }), snapshotWritten(write.written)),
          at,
          ...key,
        ]);
      }
      await insertEvent(q, ref, event, write.deltaSpellings);
    },
    insertEvent,

    async editTier(q: AgentQuery, write: TierWrite): Promise<void> {
      const at = time.encode(write.now, 'tierUpdate');
      const blob = json(write.next, write.written?.[write.scope]);
      if (write.scope === 'app') await q.run(upsertApp, [write.appName, blob, at]);
      else await q.run(upsertUser, [write.appName, write.userId ?? '', blob, at]);
    },

    async createSession(q: AgentQuery, write: CreateWrite): Promise<void> {
      const { ref, delta } = write;
      const at = time.encode(write.now, 'sessionCreate');
      const app = { ...write.app, ...delta.app };
      const user = { ...write.user, ...delta.user };
      await upsertTiers(q, { ...ref, written: write.written }, app, user, at);
      await q.run('INSERT INTO sessions (app_name, user_id, session_id, state, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)', [
        ref.appName,
        ref.userId,
        ref.sessionId,
        json(mergeState(app, user, delta.session), snapshotWritten(write.written)),
        at,
        at,
      ]);
    },
  };
}
