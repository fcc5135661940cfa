// adk-js's InMemorySessionService: the no-storage reference point.
import { InMemorySessionService, type Session } from '@google/adk';
import { adkEvent } from './adk-event';
import { adkServiceDoor, DoorTarget } from './door';

export function adkMemoryTarget(): DoorTarget<Session> {
  const service = new InMemorySessionService();
  const seeding = {
    async seedSessions(appName: string, sessions: { userId: string; sessionId: string; state: Record<string, unknown> }[]) {
      for (const s of sessions) await service.createSession({ appName, userId: s.userId, sessionId: s.sessionId, state: s.state });
    },
    // Nothing to bypass in memory: the real append path is the fast path.
    async seedEvents(key: { appName: string; userId: string; sessionId: string }, events: Parameters<typeof adkEvent>[0][]) {
      const session = await service.getSession({ ...key, config: { numRecentEvents: 1 } });
      if (!session) throw new Error(`Session ${key.sessionId} not found.`);
      for (const event of events) await service.appendEvent({ session, event: adkEvent(event) });
    },
  };
  return new DoorTarget(adkServiceDoor('adk-memory', 'memory', service, seeding, async () => {}));
}
