// Walk-through item 6 (issue 24): a session exported and imported again as a
// copy (new ids) took the import time as its created time and lost its
// title. The copy is created as of its first event and keeps the title and
// labels of the session it copies.
import { describe, expect, it } from 'vitest';
import { capability } from '../session-service/operations';
import { sessionFileText } from '../session-service/session-file';
import { useTestDatabase } from '../testing/use-test-database';
import { importSessionFile } from './import-sessions';

describe('importing an exported session as a copy', () => {
  const database = useTestDatabase('sqlite');

  it('keeps its creation time and its title', async () => {
    const store = database.service;
    const ref = { appName: 'imp', userId: 'carol', sessionId: 'original' };
    const past = Date.now() / 1000 - 30 * 86_400;
    await store.createSession(ref);
    await store.append(ref, { author: 'user', timestamp: past, content: { role: 'user', parts: [{ text: 'hi' }] } });
    await store.append(ref, { author: 'agent', timestamp: past + 60, actions: { stateDelta: { topic: 'refund' } } });
    await capability(store, 'setSessionMeta')(ref, { title: 'Double charge', labels: ['billing'] }, { actor: 'ann' });
    const file = sessionFileText((await store.getSession(ref))!);

    const report = await importSessionFile(store, file, { appName: 'imp', userId: 'carol' }, { dryRun: false, newIds: true, actor: 'ann' });
    expect(report.written).toBe(true);
    const copyId = report.items[0]!.sessionId!;
    const copy = { ...ref, sessionId: copyId };
    const summary = await store.getSessionSummary(copy);
    expect(summary!.createTime).toBeCloseTo(past, 3);
    expect(await capability(store, 'getSessionMeta')(copy)).toMatchObject({ title: 'Double charge', labels: ['billing'] });
  });
});
