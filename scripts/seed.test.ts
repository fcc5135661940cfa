// The demo data (prisma/seed.ts) tells one consistent story: sessions are
// created before their first event, and time travel to any event shows the
// shared state the agent saw then.
import { describe, expect, it } from 'vitest';
import { seedDemoData } from '../prisma/seed';
import { useTestDatabase } from '../lib/testing/use-test-database';

describe('demo data', () => {
  const database = useTestDatabase('sqlite');

  it('creates each session before its first event, and shared state before the events that read it', async () => {
    const now = Date.now() / 1000;
    await seedDemoData(database.service, now);
    const apps = ['support-bot', 'travel-planner'];
    for (const appName of apps) {
      const { sessions } = await database.service.listSessions({ appName });
      expect(sessions.length).toBeGreaterThan(0);
      for (const session of sessions) {
        const ref = { appName, userId: session.userId, sessionId: session.id };
        const [first] = (await database.service.listEvents(ref, { limit: 1 })).items;
        const summary = await database.service.getSessionSummary(ref);
        if (!summary) throw new Error(`no summary for ${session.id}`);
        expect(summary.createTime, `${session.id} created in the past`).toBeLessThan(now - 60);
        if (!first) continue;
        expect(summary.createTime, `${session.id} created before its first event`).toBeLessThan(first.event.timestamp);
        // The initial user: keys are there as of the first event.
        const asOf = await database.service.getStateAsOf(ref, 1);
        const userKeys = new Set(asOf?.user.map((entry) => entry.key));
        const initial = Object.keys(session.state).filter((key) => key.startsWith('user:'));
        for (const key of initial) {
          const history = await database.service.getKeyHistory({ appName, scope: 'user', userId: session.userId, key: key.slice(5) });
          const setAtCreation = history.items.some((change) => change.sourceSessionId === session.id && change.eventSeq === null);
          if (setAtCreation) expect(userKeys.has(key.slice(5)), `${session.id}: ${key} as of event 1`).toBe(true);
        }
      }
    }
    // The support-bot configuration is set days before any support session starts.
    const router = await database.service.getStateAsOf({ appName: 'support-bot', userId: 'carol', sessionId: 'router-troubleshooting' }, 1);
    expect(router?.app.map((entry) => entry.key)).toEqual(expect.arrayContaining(['support_hours', 'escalation_email']));
  });
});
