// What Statehouse keeps about the sessions of a store it does not own: titles,
// labels and fork links, and the history of whole-session operations (forks,
// imports, title edits, deletions). It lives in Statehouse's own database,
// keyed by the store's id and the session's name (../session-log.ts); the
// agent's database gets only the rows its ADK would write.
import type { Audit, ForkLink, OperationQuery, OperationRecord } from '../../../session-service/operations';
import type { SessionRef } from '../../../session-service/store';
import type { Page } from '../../../session-service/types';
import type { OperationEntry } from '../../operation-page';

export interface KeptMeta {
  title: string | null;
  /** Sorted, without duplicates. */
  labels: string[];
  forkedFrom: ForkLink | null;
}

/** One transaction's worth of changes: meta rows written or removed, operations recorded. */
export interface SessionLogChanges {
  upsert?: { ref: SessionRef; meta: KeptMeta }[];
  remove?: SessionRef[];
  operations?: { entry: OperationEntry; audit: Audit }[];
}

/** A session of a known app, by user and id. */
export interface SessionName {
  userId: string;
  sessionId: string;
}

export interface SessionLog {
  /** The session's row; null when there is none (no title, no labels, not a fork). */
  meta(storeId: string, ref: SessionRef): Promise<KeptMeta | null>;
  /** Sessions recorded as forked from this one, oldest first (some may since have been deleted by the agent). */
  forksOf(storeId: string, ref: SessionRef): Promise<ForkLink[]>;
  /** Titles and labels of these sessions of one app, by `JSON.stringify([userId, sessionId])`. */
  metaOf(storeId: string, appName: string, sessions: { userId: string; sessionId: string }[]): Promise<Map<string, KeptMeta>>;
  /** Sessions of the app (or of one user) whose title or one of whose labels contains the text, case-insensitively; at most `limit`. */
  matching(storeId: string, request: { appName: string; userId?: string; text: string; limit: number }): Promise<SessionName[]>;
  apply(storeId: string, changes: SessionLogChanges, time: number): Promise<void>;
  /** Newest first. A user's query includes the operations over their sessions; an app's, every one of the app. */
  operations(storeId: string, query: OperationQuery): Promise<Page<OperationRecord>>;
}

export const metaKey = (userId: string, sessionId: string) => JSON.stringify([userId, sessionId]);
