// What each side of a coexistence run counted (shared by the runner and its agent processes).
import type { SessionRef } from '../session-service/store';

export interface Tally {
  ok: number;
  failed: number;
  /** Distinct error messages (first 160 characters), with how often each occurred. */
  errors: Record<string, number>;
}

/** What an agent process reports: its appendEvent calls, and the Runner's other calls that failed (its reads). */
export interface AgentReport {
  appends: Tally;
  otherCalls: Tally;
}

/** What an agent process is asked to do. */
export interface AgentJob {
  url: string;
  ref: SessionRef;
  durationMs: number;
}

export const emptyTally = (): Tally => ({ ok: 0, failed: 0, errors: {} });

export function countFailure(into: Tally, error: unknown): void {
  into.failed += 1;
  // Driver errors quote the whole statement first: keep the code and the end, which says what went wrong.
  const text = error instanceof Error ? error.message : String(error);
  const code = error instanceof Object && 'code' in error ? `${String(error.code)}: ` : '';
  const message = code + (text.length > 160 ? `…${text.slice(-160)}` : text);
  into.errors[message] = (into.errors[message] ?? 0) + 1;
}

export function addTally(into: Tally, from: Tally): void {
  into.ok += from.ok;
  into.failed += from.failed;
  for (const [message, n] of Object.entries(from.errors)) into.errors[message] = (into.errors[message] ?? 0) + n;
}
