// An ADK store's time travel: the tiers as they were right after one event, from the replayed timeline.
import { prefixedKey } from '../../../session-service/scope';
import type { SessionRef } from '../../../session-service/store';
import type { SessionTiers, StateChange, StateRecord } from '../../../session-service/types';
import type { AdkStoreContext } from './context';
import { changeSource, loadReplay, sortedEntries } from './rows';

export async function getStateAsOf(ctx: AdkStoreContext, ref: SessionRef, seq: number): Promise<SessionTiers | null> {
  const loaded = await loadReplay(ctx, ref);
  if (!loaded || !Number.isInteger(seq) || seq < 0 || seq > loaded.replay.events.length) return null;
  const at = loaded.replay.tiersAfter(seq);
  const last = new Map<string, StateChange>();
  for (const item of loaded.replay.events.slice(0, Math.max(0, seq))) {
    for (const change of item.changes) last.set(prefixedKey(change.scope, change.key), change);
  }
  const source = (scope: 'app' | 'user' | 'session') => (key: string) => {
    const change = last.get(prefixedKey(scope, key));
    return change ? changeSource(change) : null;
  };
  const time = (scope: 'app' | 'user' | 'session') => (key: string) => last.get(prefixedKey(scope, key))?.time ?? 0;
  const entries = (scope: 'app' | 'user' | 'session', record: StateRecord) =>
    sortedEntries(record, 0, source(scope)).map((entry) => ({ ...entry, updateTime: time(scope)(entry.key) }));
  return { app: entries('app', at.app), user: entries('user', at.user), session: entries('session', at.session) };
}
