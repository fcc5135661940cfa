// What the four direct targets (raw and simple, SQLite and PostgreSQL) do the
// same way: like ADK's services they hand back a session object on create and
// load, and append through it, so each holds the objects it handed out.
import type { Session } from '../../lib/session-service';
import { keyString, type ReadResult, type SessionKey } from './types';

export abstract class HeldSessionsTarget {
  private readonly sessions = new Map<string, Session>();

  /** The session with its last `numRecentEvents` events (all when undefined), or null. */
  protected abstract read(key: SessionKey, numRecentEvents: number | undefined): Session | null | Promise<Session | null>;

  async get(key: SessionKey, numRecentEvents?: number): Promise<ReadResult | null> {
    const session = await this.read(key, numRecentEvents);
    return session && { eventCount: session.events.length, state: session.state };
  }

  async load(key: SessionKey): Promise<void> {
    const session = await this.read(key, 1);
    if (!session) throw new Error(`Session ${key.sessionId} not found.`);
    this.hold(key, session);
  }

  forget(key: SessionKey): void {
    this.sessions.delete(keyString(key));
  }

  protected hold(key: SessionKey, session: Session): void {
    this.sessions.set(keyString(key), session);
  }

  /** Holds the object a create hands back: the merged state, no events yet. */
  protected holdCreated(key: SessionKey, state: Session['state'], time: number): void {
    this.hold(key, { id: key.sessionId, appName: key.appName, userId: key.userId, state, events: [], lastUpdateTime: time, revision: 0 });
  }

  /** The object an append goes through (from create or load). */
  protected held(key: SessionKey): Session {
    const session = this.sessions.get(keyString(key));
    if (!session) throw new Error(`No loaded session ${key.sessionId}`);
    return session;
  }
}
