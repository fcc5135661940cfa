// Import on a store an ADK writes: each copy written as that ADK writes a
// session (fork.ts: its create_session with the session tier, then each
// event's row as its append inserts it), all of them in one transaction or
// none. The session row holds the session tier the events leave, by the
// family's merge rule, as the agent's appends would have left it. The
// events' app: and user: changes are written into the app's and the user's
// tier rows (as that ADK's append writes a tier) when the copy says so;
// the import command refuses, up front, a copy that has them otherwise.
import { nowSeconds } from '../../../session-service/events';
import type { Audit, SessionCopy } from '../../../session-service/operations';
import { splitDelta, withoutTempKeys } from '../../../session-service/scope';
import type { StateRecord } from '../../../session-service/types';
import type { AgentQuery } from '../agent-db';
import type { AdkStoreContext } from './context';
import { appRow, userRow } from './rows';
import { createContext } from './writes';
import { writtenTiers, type TierRequest } from './state-spelling';
import { mergeSpellings, splitSpellings } from '../../../session-service/value-spelling';

/** The three tiers after the copy's events, each by the family's merge rule; app and user start from what is stored. */
function tiersAfter(ctx: AdkStoreContext, copy: SessionCopy, app: StateRecord, user: StateRecord) {
  const tiers = { app, user, session: splitDelta(withoutTempKeys(copy.initialState)).session };
  for (const event of copy.events) {
    const delta = splitDelta(withoutTempKeys(event.actions.stateDelta ?? {}));
    tiers.session = ctx.codec.applyDelta(tiers.session, delta.session);
    if (copy.applySharedState) {
      tiers.app = ctx.codec.applyDelta(tiers.app, delta.app);
      tiers.user = ctx.codec.applyDelta(tiers.user, delta.user);
    }
  }
  return tiers;
}

/** The keys the copy writes into each tier and their texts: its initial state's, then each event's, in order. */
function spellingsOf(copy: SessionCopy): Required<TierRequest> {
  const parts = [splitSpellings(copy.spellings), ...(copy.eventSpellings ?? []).map(splitSpellings)];
  const tier = (scope: 'app' | 'user' | 'session') => mergeSpellings(...parts.map((part) => part[scope]));
  const deltas = copy.events.map((event) => splitDelta(withoutTempKeys(event.actions.stateDelta ?? {})));
  const keys = (scope: 'app' | 'user') => [...new Set(deltas.flatMap((delta) => Object.keys(delta[scope])))];
  return {
    spellings: { session: tier('session'), app: tier('app'), user: tier('user') },
    keys: { session: Object.keys(copy.initialState), app: keys('app'), user: keys('user') },
  };
}

async function writeCopy(ctx: AdkStoreContext, qx: AgentQuery, copy: SessionCopy, now: number): Promise<void> {
  const { createSession, insertEvent } = ctx.sessionWriter('import');
  const writes = ctx.writes();
  const ref = { appName: copy.appName, userId: copy.userId, sessionId: copy.sessionId };
  const spelled = spellingsOf(copy);
  const created = await createContext(ctx, qx, ref, now, true, spelled);
  const after = tiersAfter(ctx, copy, created.app, created.user);
  await createSession(qx, { ...created, delta: { app: {}, user: {}, session: after.session, temp: {} } });
  for (const [index, event] of copy.events.entries()) await insertEvent(qx, ref, event, copy.eventSpellings?.[index]);
  if (!copy.applySharedState) return;
  // create_session may have made the tier rows: read them again before writing them as an append would.
  for (const scope of ['app', 'user'] as const) {
    const row = scope === 'app' ? await appRow(ctx, qx, ref.appName) : await userRow(ctx, qx, ref.appName, ref.userId);
    const before = row?.state ?? {};
    const next = after[scope];
    if (JSON.stringify(before) === JSON.stringify(next)) continue;
    const written = writtenTiers(
      { [scope]: row?.stateRaw },
      { spellings: { [scope]: spelled.spellings[scope] }, keys: { [scope]: spelled.keys[scope] } },
    );
    await writes.editTier(qx, {
      ...(written ? { written } : {}),
      appName: ref.appName,
      userId: ref.userId,
      scope,
      app: scope === 'app' ? before : {},
      user: scope === 'user' ? before : {},
      hasAppRow: scope === 'app' && row !== null,
      hasUserRow: scope === 'user' && row !== null,
      now,
      next,
    });
  }
}

export async function importSessions(ctx: AdkStoreContext, copies: SessionCopy[], audit: Audit): Promise<void> {
  ctx.sessionWriter('import');
  const now = nowSeconds();
  await ctx.db.write(async (qx) => {
    for (const copy of copies) await writeCopy(ctx, qx, copy, now);
  });
  await ctx.sessionLog?.apply(
    ctx.info.id,
    {
      upsert: copies
        .filter((copy) => copy.title || copy.labels?.length || copy.forkedFrom)
        .map((copy) => ({
          ref: { appName: copy.appName, userId: copy.userId, sessionId: copy.sessionId },
          meta: { title: copy.title ?? null, labels: copy.labels ?? [], forkedFrom: copy.forkedFrom ?? null },
        })),
      operations: copies.map((copy) => ({
        entry: {
          appName: copy.appName,
          userId: copy.userId,
          sessionId: copy.sessionId,
          kind: 'import' as const,
          detail: { events: copy.events.length, appliedSharedState: copy.applySharedState ?? false },
        },
        audit,
      })),
    },
    now,
  );
}
