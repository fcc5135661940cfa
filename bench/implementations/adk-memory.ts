// adk-js's InMemorySessionService: the no-storage reference point.
import { InMemorySessionService, type Session } from '@google/adk';
import { adkEvent } from './adk-event';
import { keyString, type BenchEvent, type BenchTarget, type Delta, type ReadResult, type SeedSession, type SessionKey } from './types';

export class AdkMemoryTarget implements BenchTarget {
  readonly impl = 'adk-memory';
  readonly provider = 'memory';
  private readonly service = new InMemorySessionService();
  private readonly sessions = new Map<string, Session>();

  async create(key: SessionKey, state: Delta): Promise<void> {
    const session = await this.service.createSession({ ...key, state });
    this.sessions.set(keyString(key), session);
  }

  async append(key: SessionKey, event: BenchEvent): Promise<void> {
    const session = this.sessions.get(keyString(key));
    if (!session) throw new Error(`No loaded session ${key.sessionId}`);
    await this.service.appendEvent({ session, event: adkEvent(event) });
  }

  async get(key: SessionKey, numRecentEvents?: number): Promise<ReadResult | null> {
    const session = await this.service.getSession({ ...key, config: numRecentEvents === undefined ? undefined : { numRecentEvents } });
    return session ? { eventCount: session.events.length, state: session.state } : null;
  }

  async load(key: SessionKey): Promise<void> {
    const session = await this.service.getSession({ ...key, config: { numRecentEvents: 1 } });
    if (!session) throw new Error(`Session ${key.sessionId} not found.`);
    this.sessions.set(keyString(key), session);
  }

  async list(appName: string, userId?: string): Promise<number> {
    return (await this.service.listSessions({ appName, userId })).sessions.length;
  }

  async sessionPage(appName: string, userId: string | undefined, limit: number): Promise<{ items: number; total: number }> {
    const page = await this.service.listSessions({ appName, userId, limit, order: 'desc' });
    return { items: page.sessions.length, total: page.totalItems ?? page.sessions.length };
  }

  async seedSessions(appName: string, sessions: SeedSession[]): Promise<void> {
    for (const s of sessions) await this.service.createSession({ appName, userId: s.userId, sessionId: s.sessionId, state: s.state });
  }

  async seedEvents(key: SessionKey, events: BenchEvent[]): Promise<void> {
    // Nothing to bypass in memory: the real append path is the fast path.
    await this.load(key);
    for (const event of events) await this.append(key, event);
    this.forget(key);
  }

  forget(key: SessionKey): void {
    this.sessions.delete(keyString(key));
  }

  async close(): Promise<void> {}
}
