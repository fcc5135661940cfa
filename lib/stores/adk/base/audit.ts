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

export interface EditAudit {
  record(entries: AuditEntry[]): Promise<void>;
}
