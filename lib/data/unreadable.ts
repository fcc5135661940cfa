// An agent's row Statehouse cannot read answers UNREADABLE (422): a page
// shows it in place, as its own panel, rather than failing as a whole.
import { isSessionServiceError } from '../session-service/errors';
import type { UnreadableNote } from '../session-service/types';

/** The detail of an UNREADABLE error, or null for anything else. */
export function unreadableDetail(error: unknown): string | null {
  return isSessionServiceError(error) && error.code === 'UNREADABLE' ? error.message : null;
}

/** The promise's value, or why the row it reads cannot be read; any other failure is thrown on. */
export async function orUnreadable<T>(promise: Promise<T>): Promise<{ value: T } | { unreadable: string }> {
  try {
    return { value: await promise };
  } catch (error) {
    const detail = unreadableDetail(error);
    if (detail === null) throw error;
    return { unreadable: detail };
  }
}

/** Whether a listed time is one the agent's store could not read: an ADK store lists it as 0 beside notes of the row (SessionSummary.unreadable). */
export function unreadableTime(seconds: number, notes: UnreadableNote[] | undefined): boolean {
  return seconds === 0 && notes !== undefined && notes.length > 0;
}
