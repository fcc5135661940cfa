// The example agent as its README runs it (scripted model, StatehouseSessionService),
// checked through the HTTP API the console reads, on SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as sessionsRoute from '../../app/api/apps/[app]/users/[user]/sessions/route';
import * as userStateRoute from '../../app/api/apps/[app]/users/[user]/state/route';
import { StatehouseSessionService } from '../../lib/agent-service';
import { call } from '../../lib/testing/http';
import { testProviders } from '../../lib/testing/databases';
import { useTestDatabase } from '../../lib/testing/use-test-database';
import { APP_NAME } from './agent';
import { runConversations } from './conversations';
import { ScriptedConciergeModel } from './scripted-model';

const providers = await testProviders();

describe.each(providers)('examples/adk-agent on %s', (provider) => {
  const database = useTestDatabase(provider, { serveRoutes: true });
  let sessionService: StatehouseSessionService;

  beforeAll(() => {
    sessionService = new StatehouseSessionService({ databaseUrl: database.url });
  });
  afterAll(async () => {
    await sessionService?.close();
  });

  it('produces sessions the console lists, with user state shared across them', async () => {
    const ids = await runConversations({ model: new ScriptedConciergeModel(), sessionService, count: 4 });
    expect(ids).toHaveLength(4);

    const listed = await call(sessionsRoute.GET, 'GET', { params: { app: APP_NAME, user: 'ada' } });
    expect(listed.status).toBe(200);
    const sessions = listed.json as { id: string; state: Record<string, unknown> }[];
    expect(sessions.map((s) => s.id).sort()).toEqual([ids[0], ids[3]].sort());
    for (const session of sessions) {
      expect(session.state).toMatchObject({ topic: 'evening plans', 'user:name': 'Ada', 'user:preferences': ['jazz'] });
      expect(session.state.last_answer).toEqual(expect.any(String));
      expect(Object.keys(session.state).some((key) => key.startsWith('temp:'))).toBe(false);
    }

    const stored = await database.service.getSession({ appName: APP_NAME, userId: 'ada', sessionId: ids[0] ?? '' });
    expect(stored?.events).toHaveLength(8);
    const userState = await call(userStateRoute.GET, 'GET', { params: { app: APP_NAME, user: 'grace' } });
    expect(userState.json).toMatchObject({
      entries: [
        { key: 'name', value: 'Grace' },
        { key: 'preferences', value: ['hiking in the mountains'], lastChange: { actor: 'concierge' } },
      ],
    });
  });
});
