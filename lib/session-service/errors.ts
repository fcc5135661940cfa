import type { JsonValue } from './types';

export type ErrorCode =
  | 'NOT_FOUND'
  | 'ALREADY_EXISTS'
  | 'STALE_SESSION'
  | 'INVALID_INPUT'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNAVAILABLE'
  /** The store is open read-only (a schema or version Statehouse does not know how to write). */
  | 'READ_ONLY'
  /** This store cannot do that at all (an ADK store has no such operation). */
  | 'UNSUPPORTED'
  /** An edit's expected values were not what its keys held (StateConflictError). */
  | 'CONFLICT'
  /** A row of an agent's store that Statehouse cannot read, so this session cannot be read or written whole. */
  | 'UNREADABLE'
  /** No agent server (the agent's ADK API server) is configured for this app and store. */
  | 'NO_AGENT_SERVER'
  /** The agent server could not be reached. */
  | 'AGENT_UNREACHABLE'
  /** The agent server did not answer, or stopped answering, within its time limit. */
  | 'AGENT_TIMEOUT'
  /** The agent server answered an error, the agent failed, or the answer was not an ADK event stream. */
  | 'AGENT_FAILED'
  /** The agent server's own store has no such session (it runs over another store than the one served). */
  | 'AGENT_SESSION_MISSING'
  /** Clearing data outside every namespace a test kit marked as its own. */
  | 'NOT_TEST_NAMESPACE';

/**
 * Marks the errors of this module in a way that survives bundling: Next
 * builds route handlers and server components into separate bundles, each
 * with its own copy of this class, and the one process-wide service throws
 * whichever copy built it, so `instanceof` fails in the other. A registered
 * symbol is the same in every copy.
 */
const MARK: unique symbol = Symbol.for('statehouse.SessionServiceError');

/** A domain error: the code says what kind, the message is fit to show a user. */
export class SessionServiceError extends Error {
  readonly [MARK] = true;

  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SessionServiceError';
  }
}

/** ADK's exact text, so ADK clients that match on it keep working. */
export const STALE_SESSION_MESSAGE =
  'The session has been modified in storage since it was loaded. Please reload the session before appending more events.';

/** ADK's API server says exactly this for GET and PATCH of a missing session. */
export const SESSION_NOT_FOUND = 'Session not found';

export const sessionNotFound = (sessionId: string) => new SessionServiceError('NOT_FOUND', `Session ${sessionId} not found.`);

export const sessionAlreadyExists = (sessionId: string) =>
  new SessionServiceError('ALREADY_EXISTS', `Session already exists: ${sessionId}`);

export const staleSession = () => new SessionServiceError('STALE_SESSION', STALE_SESSION_MESSAGE);

/** An append of a different event under an id the session already stored (a retry of the same event is answered with it). */
export const eventIdTaken = (id: string) =>
  new SessionServiceError('CONFLICT', `Event id ${id} is already used in this session by a different event.`);

export const invalidInput = (message: string) => new SessionServiceError('INVALID_INPUT', message);

export const unreadableRow = (message: string) => new SessionServiceError('UNREADABLE', message);

/** A key that no longer held what an edit expected, and what it holds now (undefined: absent). */
export interface StateConflict {
  key: string;
  current: JsonValue | undefined;
  /** Who made the change that holds it now, when the history knows. */
  by?: string;
}

/** An edit whose expected values were not what the keys held when it wrote: nothing was saved. */
export class StateConflictError extends SessionServiceError {
  constructor(readonly conflicts: StateConflict[]) {
    super('CONFLICT', `Changed since it was read: ${conflicts.map((conflict) => conflict.key).join(', ')}; nothing was saved.`);
  }
}

/** The conflicts of a CONFLICT error (from any bundle's copy of the class). */
export function stateConflictsOf(error: unknown): StateConflict[] | null {
  if (!isSessionServiceError(error) || error.code !== 'CONFLICT') return null;
  const conflicts = (error as Partial<StateConflictError>).conflicts;
  return Array.isArray(conflicts) ? conflicts : [];
}

export const notSupported = (operation: string) =>
  new SessionServiceError('UNSUPPORTED', `This session store does not support ${operation}.`);

export function isSessionServiceError(error: unknown): error is SessionServiceError {
  return typeof error === 'object' && error !== null && MARK in error;
}

export const readOnlyStore = (reason: string) => new SessionServiceError('READ_ONLY', `This store is open read-only: ${reason}`);

export const unsupported = (message: string) => new SessionServiceError('UNSUPPORTED', message);

/** A fault of the agent's ADK API server, said so a person can act on it. */
export const agentFault = (
  code: 'NO_AGENT_SERVER' | 'AGENT_UNREACHABLE' | 'AGENT_TIMEOUT' | 'AGENT_FAILED' | 'AGENT_SESSION_MISSING',
  message: string,
) => new SessionServiceError(code, message);
