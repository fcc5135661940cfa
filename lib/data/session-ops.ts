// What the session page's operations panel shows: the session's title,
// labels and fork links (when the store keeps them), and the invocations a
// rewind can go back to.
import { requireViewer } from '../current-principal';
import { getStore } from '../services';
import type { OperationRecord, RefusableOperation, SessionMeta } from '../session-service/operations';
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
  /** What the store refuses, and why: the console hides those forms and says so. */
  refusals: OperationRefusals;
}

/** Why the store refuses each operation it refuses (absent: it does not). */
export type OperationRefusals = Partial<Record<RefusableOperation, string>>;

const REFUSABLE: RefusableOperation[] = ['fork', 'import', 'meta', 'prune', 'pruneEvents'];

/** What the request's store refuses of the whole-session operations, with why (the forms are hidden and this is said instead). */
export async function operationRefusals(): Promise<OperationRefusals> {
  const store = await getStore();
  const refusals: OperationRefusals = {};
  for (const operation of REFUSABLE) {
    const refusal = store.refusalOf?.(operation);
    if (refusal) refusals[operation] = refusal.message;
  }
  return refusals;
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
  return { meta, invocations, operations: operations.items, refusals: await operationRefusals() };
}
