// The audit log: every edit and operation Statehouse made or recorded, from
// every table that keeps one, as one list newest first. Which tables: the
// native store's support edits (state_changes without an event) and its
// session operations; an agent store's edits and appends (store_edits) and
// its session operations (store_session_operations); for every store, notes
// (session_notes, written and removed) and messages sent to agents (agent_sends).
import type { Page, Scope } from './types';

export type AuditSource = 'edit' | 'append' | 'operation' | 'note' | 'send';

export interface AuditRecord {
  /** Unique in the log: the source and its row (`edit:12`, `note-removed:3`). */
  id: string;
  source: AuditSource;
  /** What happened, in a word or two: `edit`, `append`, `fork`, `import`, `meta`, `prune`, `note added`, `note removed`, `message sent`. */
  action: string;
  /** Float seconds. */
  time: number;
  actor: string;
  appName: string;
  /** '' when the record is about an app as a whole. */
  userId: string;
  /** '' when the record is about an app or a user. */
  sessionId: string;
  /** For edits and appends: the tier and key. */
  scope: Scope | null;
  key: string | null;
  /** For edits and appends: JSON text of the value before and after (null: absent). */
  oldValue: string | null;
  newValue: string | null;
  reason: string | null;
  /** What else the source says: an operation's detail (JSON text), a note's text, a sent message. */
  detail: string | null;
}

export interface AuditLogQuery {
  /** The served store ('native' for Statehouse's own sessions). */
  storeId: string;
  actor?: string;
  appName?: string;
  userId?: string;
  /** Only edits and appends of this key (the key within its tier, or prefixed: `user:plan`). */
  key?: string;
  /** Float seconds, inclusive. */
  since?: number;
  until?: number;
  limit?: number;
  offset?: number;
}

export interface AuditLog {
  read(query: AuditLogQuery): Promise<Page<AuditRecord>>;
}

/** The furthest a page of the log reaches (offset + limit): each source reads that many rows. */
export const MAX_AUDIT_DEPTH = 10_000;
