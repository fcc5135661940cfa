// Where Statehouse records who changed an ADK store through it and why:
// Statehouse's own database, never the agent's (see ../audit-log.ts).
import type { JsonValue, Scope } from '../../../session-service/types';

export interface AuditEntry {
  /** Which opened store (its id in the composition root). */
  storeId: string;
  kind: 'edit' | 'append';
  appName: string;
  scope: Scope;
  userId: string;
  sessionId: string;
  key: string;
  oldValue: JsonValue | undefined;
  newValue: JsonValue | undefined;
  actor: string;
  reason: string | null;
  eventId: string | null;
  /** Float seconds. */
  time: number;
}

export interface AuditQuery {
  storeId: string;
  appName: string;
  /** Edits of these scopes only. */
  scopes: ('app' | 'user')[];
  /** For user scope: this user's. */
  userId?: string;
  key?: string;
}

export interface EditAudit {
  record(entries: AuditEntry[]): Promise<void>;
  /** Support edits (kind `edit`) matching the query, newest first, each with its row id. */
  edits(query: AuditQuery): Promise<(AuditEntry & { id: number })[]>;
}
