// Walk-through item 10 (issue 24): a newcomer on the demo was not pointed at
// the richest session or told which app the example agent writes live.
import { describe, expect, it } from 'vitest';
import { seedDemoData } from '../../prisma/seed';
import { APP_NAME } from '../../examples/adk-agent/agent';
import { sessionPath } from '../paths';
import { useTestDatabase } from '../testing/use-test-database';
import { demoGuideLines, readDemoGuide } from './demo-guide';

describe('the demo guide', () => {
  const database = useTestDatabase('sqlite');

  it('names the session with the most events and the app written live', async () => {
    await seedDemoData(database.service);
    let most = { eventCount: -1, path: '' };
    for (const app of await database.service.listApps()) {
      for (const session of (await database.service.searchSessions({ appName: app.appName, limit: 1000 })).items) {
        if (session.eventCount > most.eventCount)
          most = { eventCount: session.eventCount, path: sessionPath(session.appName, session.userId, session.id) };
      }
    }
    const guide = await readDemoGuide(database.service, APP_NAME);
    expect(guide.richest?.eventCount).toBe(most.eventCount);
    const lines = demoGuideLines(guide, 'http://127.0.0.1:3000');
    expect(lines[0]).toContain(`http://127.0.0.1:3000${most.path}`);
    expect(lines[1]).toContain(`app "${APP_NAME}"`);
  });
});
