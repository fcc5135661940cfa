// The console's session operations as commands: validation answers per
// field, the store's refusals as values, and nothing written by a refusal.
import { describe, expect, it } from 'vitest';
import { appendEvent } from '../session-service/append';
import { sessionFileText } from '../session-service/session-file';
import { testProviders } from '../testing/databases';
import { uniqueName } from '../testing/factories';
import { databaseDump } from '../testing/http';
import { useTestDatabase } from '../testing/use-test-database';
import { forkCommand, importCommand, metaCommand, pruneCommand, rewindCommand } from './session-ops';

const providers = await testProviders();

describe.each(providers)('session operation commands on %s', (provider) => {
  const database = useTestDatabase(provider);

  async function seed() {
    const appName = uniqueName('app');
    const session = await database.service.createSession({ appName, userId: 'u', sessionId: 's' });
    await appendEvent(database.service, session, { author: 'agent', invocationId: 'i1', actions: { stateDelta: { k: 1 } } });
    await appendEvent(database.service, session, { author: 'agent', invocationId: 'i2', actions: { stateDelta: { k: 2 } } });
    return { appName, userId: 'u', sessionId: 's' };
  }

  it('answers bad input field by field and writes nothing', async () => {
    const ref = await seed();
    const before = await databaseDump(database);
    expect(await forkCommand(database.service, 'a', { ...ref, atSeq: 0 })).toMatchObject({
      ok: false,
      code: 'INVALID_INPUT',
      fieldErrors: { atSeq: 'must be an event number from 1' },
    });
    expect(await forkCommand(database.service, 'a', { ...ref, atSeq: 9 })).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
    expect(await rewindCommand(database.service, 'a', { ...ref, rewindBeforeInvocationId: '' })).toMatchObject({
      ok: false,
      fieldErrors: { rewindBeforeInvocationId: 'is required' },
    });
    expect(await rewindCommand(database.service, 'a', { ...ref, rewindBeforeInvocationId: 'i9' })).toMatchObject({
      ok: false,
      code: 'NOT_FOUND',
      message: 'Invocation ID not found: i9',
    });
    expect(await metaCommand(database.service, 'a', { ...ref, title: 'x', labels: 'a'.repeat(65) })).toMatchObject({
      ok: false,
      fieldErrors: { 'labels.0': 'must be at most 64 characters' },
    });
    expect(await pruneCommand(database.service, 'a', { ...ref, target: 'session', dryRun: false })).toMatchObject({
      ok: false,
      fieldErrors: { reason: expect.stringMatching(/^is required/) },
    });
    expect(await importCommand(database.service, 'a', { appName: ref.appName, text: 'not json', dryRun: false })).toMatchObject({
      ok: false,
      code: 'INVALID_INPUT',
    });
    expect(await databaseDump(database)).toEqual(before);
  });

  it('forks, rewinds, titles, imports and prunes', async () => {
    const ref = await seed();
    expect(await forkCommand(database.service, 'a', { ...ref, atSeq: 1, forkId: 'f' })).toMatchObject({
      ok: true,
      data: { id: 'f', eventCount: 1 },
    });
    expect(await rewindCommand(database.service, undefined, { ...ref, rewindBeforeInvocationId: 'i2', revision: 2 })).toMatchObject({
      ok: true,
      data: { undoneEvents: 1, event: { actions: { stateDelta: { k: 1 } } } },
    });
    expect(await metaCommand(database.service, 'a', { ...ref, title: ' Refund ', labels: 'vip, billing vip' })).toMatchObject({
      ok: true,
      data: { title: 'Refund', labels: ['billing', 'vip'] },
    });
    const text = sessionFileText((await database.service.getSession(ref))!);
    const preview = await importCommand(database.service, 'a', { appName: ref.appName, userId: 'v', text, dryRun: true });
    expect(preview).toMatchObject({ ok: true, data: { counts: { create: 1 }, written: false } });
    expect(await importCommand(database.service, 'a', { appName: ref.appName, userId: 'v', text, dryRun: false })).toMatchObject({
      ok: true,
      data: { written: true },
    });
    expect(await pruneCommand(database.service, 'a', { appName: ref.appName, idleDays: 1, dryRun: true })).toEqual({
      ok: true,
      data: { sessions: 0, events: 0 },
    });
    expect(await pruneCommand(database.service, 'a', { ...ref, target: 'session', dryRun: false, reason: 'done' })).toEqual({
      ok: true,
      data: { sessions: 1, events: 3 },
    });
  });
});
