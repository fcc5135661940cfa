// An ADK store's time travel: the tiers as they were right after one event,
// from the session's timeline (timeline.ts: checkpoints and pages, never the
// whole session at once) over the tiers as they are now.
import { prefixedKey } from '../../../session-service/scope';
import type { SessionRef } from '../../../session-service/store';
import type { SessionTiers, StateRecord } from '../../../session-service/types';
import type { AdkStoreContext } from './context';
import type { Tiers } from './replay';
import { sessionWithTiers, sortedEntries } from './rows';
import { tiersAt, timelinesOf } from './timeline';

export async function getStateAsOf(ctx: AdkStoreContext, ref: SessionRef, seq: number): Promise<SessionTiers | null> {
  if (!Number.isInteger(seq) || seq < 0) return null;
  const rows = await sessionWithTiers(ctx, ref);
  const current: Tiers | null = rows ? { app: rows.app?.state ?? {}, user: rows.user?.state ?? {}, session: rows.row.state } : null;
  if (!current) return null;
  const at = await timelinesOf(ctx).stateAfter(ctx, ref, seq);
  if (!at) return null;
  const tiers = tiersAt(at.state, current, at.head.touched);
  const entries = (scope: 'app' | 'user' | 'session', record: StateRecord) =>
    sortedEntries(record, 0, (key) => at.state.sources.get(prefixedKey(scope, key)) ?? null).map((entry) => ({
      ...entry,
      updateTime: entry.lastChange?.time ?? 0,
    }));
  return { app: entries('app', tiers.app), user: entries('user', tiers.user), session: entries('session', tiers.session) };
}
