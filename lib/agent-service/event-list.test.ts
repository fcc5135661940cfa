// appendEvent keeps adk-js's list semantics on the caller's session object
// (an event with an id already there replaces it in place) without looking
// through the whole list on every append.
import { createEvent } from '@google/adk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueName } from '../testing/factories';
import { useTestDatabase } from '../testing/use-test-database';
import { StatehouseSessionService } from './statehouse-session-service';

describe('StatehouseSessionService event list', () => {
  const database = useTestDatabase('sqlite');
  let sessions: StatehouseSessionService;
  beforeAll(() => {
    sessions = new StatehouseSessionService({ databaseUrl: database.url });
  });
  afterAll(() => sessions.close());

  it('pushes new events, replaces one with a known id, and notices events the caller added', async () => {
    const session = await sessions.createSession({ appName: uniqueName('app'), userId: 'u1' });
    const first = createEvent({ id: 'e1', author: 'agent' });
    await sessions.appendEvent({ session, event: first });
    await sessions.appendEvent({ session, event: createEvent({ id: 'e2', author: 'agent' }) });
    // A retry of the same event is answered with the stored one; the list keeps one entry for it.
    const again = { ...first };
    await sessions.appendEvent({ session, event: again });
    expect(session.events.map((e) => e.id)).toEqual(['e1', 'e2']);
    expect(session.events[0]).toBe(again);
    // Another event under a used id is refused.
    await expect(sessions.appendEvent({ session, event: createEvent({ id: 'e1', author: 'other' }) })).rejects.toMatchObject({
      code: 'CONFLICT',
    });

    // The caller edits the list itself: the next append sees those edits.
    const added = createEvent({ id: 'e3', author: 'user' });
    session.events.push(added);
    session.events.splice(0, 1);
    const third = createEvent({ id: 'e3', author: 'agent' });
    await sessions.appendEvent({ session, event: third });
    expect(session.events.map((e) => e.id)).toEqual(['e2', 'e3']);
    expect(session.events[1]).toBe(third);

    // Storage keeps each event once.
    const stored = await sessions.getSession({ appName: session.appName, userId: 'u1', sessionId: session.id });
    expect(stored?.events.map((e) => e.id)).toEqual(['e1', 'e2', 'e3']);
  });
});
