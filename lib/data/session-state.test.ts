// The session's state view (the API's /state, the state panel) is one
// statement on the native store: the three tiers and the session's revision
// and counts read together, with no transaction around them.
import { describe, expect, it } from 'vitest';
import { createNativeSessionStore } from '../stores/native';
import { countingClient } from '../testing/counting-client';
import { testProviders } from '../testing/databases';
import { uniqueName } from '../testing/factories';
import { useTestDatabase } from '../testing/use-test-database';
import { sessionStateView } from './session-state';

const providers = await testProviders();

describe.each(providers)('the session state view on %s', (provider) => {
  const database = useTestDatabase(provider);

  it('reads the tiers, the revision and the counts in one statement', async () => {
    const ref = { appName: uniqueName('view'), userId: 'u', sessionId: 's' };
    await database.service.createSession({ ...ref, state: { topic: 'a', 'user:plan': 'pro', 'app:flag': true } });
    await database.service.append(ref, { author: 'agent', actions: { stateDelta: { topic: 'b' } } });
    const counted = countingClient(database.db.client);
    const store = createNativeSessionStore(counted.client, provider);

    const view = await sessionStateView(store, ref);

    expect({ statements: counted.statements(), transactions: counted.transactions() }).toEqual({ statements: 1, transactions: 0 });
    const summary = await database.service.getSessionSummary(ref);
    expect(view).toMatchObject({ revision: summary?.revision, eventCount: 1, lastUpdateTime: summary?.lastUpdateTime });
    expect(view.session.map((entry) => [entry.key, entry.value])).toEqual([['topic', 'b']]);
    expect(view.user.map((entry) => [entry.key, entry.value])).toEqual([['plan', 'pro']]);
    expect(view.app.map((entry) => [entry.key, entry.value])).toEqual([['flag', true]]);
  });

  it('answers NOT_FOUND for a missing session', async () => {
    const ref = { appName: uniqueName('view'), userId: 'u', sessionId: 'none' };
    await expect(sessionStateView(database.service, ref)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
