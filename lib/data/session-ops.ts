// What the session page's operations panel shows: the session's title,
// labels and fork links (when the store keeps them), and the invocations a
// rewind can go back to.
import { requireViewer } from '../current-principal';
import { getStore } from '../services';
import type { OperationRecord, SessionMeta } from '../session-service/operations';
import type { SessionRef } from '../session-service/store';

/** Events read for the rewind list: an invocation older than this many events is typed by hand. */
const INVOCATION_SCAN = 1000;
const OPERATIONS_SHOWN = 20;

export interface SessionOpsView {
  /** Null when the store keeps no titles or fork links (a store over ADK's own tables). */
  meta: SessionMeta | null;
  /** Invocation ids, newest first, each with the sequence number of its first event in the scanned range. */
  invocations: { invocationId: string; firstSeq: number }[];
  /** The newest entries of the session operations history about this session (forks, imports, titles, deletions). */
  operations: OperationRecord[];
}

export async function getSessionOps(ref: SessionRef): Promise<SessionOpsView> {
  await requireViewer();
  const store = await getStore();
  const [meta, events, operations] = await Promise.all([
    store.getSessionMeta ? store.getSessionMeta(ref) : Promise.resolve(null),
    store.listEvents(ref, { newestFirst: true, limit: INVOCATION_SCAN }),
    store.listOperations ? store.listOperations({ ...ref, limit: OPERATIONS_SHOWN }) : Promise.resolve({ items: [], total: 0 }),
  ]);
  const first = new Map<string, number>();
  for (const { seq, event } of events.items) {
    if (event.invocationId) first.set(event.invocationId, seq);
  }
  const invocations = [...first.entries()]
    .map(([invocationId, firstSeq]) => ({ invocationId, firstSeq }))
    .sort((a, b) => b.firstSeq - a.firstSeq);
  return { meta, invocations, operations: operations.items };
}
