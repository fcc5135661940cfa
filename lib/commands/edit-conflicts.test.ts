// Two people confirming an edit of the same key from the same value: one
// wins, the other is told, on both databases and however the writes
// interleave (the expected value is checked in the write's transaction,
// under its row locks, not read before it).
import { describe, expect, it } from 'vitest';
import { testProviders } from '../testing/databases';
import { useTestDatabase } from '../testing/use-test-database';
import { editStateCommand } from './edit-state';

const providers = await testProviders();
const ROUNDS = 10;
const EDITORS = 8;

describe.each(providers)('concurrent edits of one key on %s', (provider) => {
  const database = useTestDatabase(provider);
  const app = `race-${provider}`;

  const edit = (round: number, editor: number, seen: { present: false } | { present: true; value: unknown }, key = `k${round}`) =>
    editStateCommand(database.service, `editor-${editor}`, {
      scope: 'user',
      appName: app,
      userId: 'u',
      changes: [{ key, value: JSON.stringify(`from ${editor}`), seen }],
      reason: `round ${round}`,
    });

  it('saves exactly one of several edits made from the same value, every round', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      await database.service.editState({
        scope: 'user',
        appName: app,
        userId: 'u',
        changes: { [`k${round}`]: 'start' },
        actor: 'setup',
        reason: 'setup',
      });
      const results = await Promise.all(
        Array.from({ length: EDITORS }, (_, editor) => edit(round, editor, { present: true, value: 'start' })),
      );
      const saved = results.filter((result) => result.ok);
      expect(saved, `round ${round}`).toHaveLength(1);
      for (const result of results) if (!result.ok) expect(result.code).toBe('CONFLICT');
      const history = await database.service.getKeyHistory({ appName: app, scope: 'user', userId: 'u', key: `k${round}` });
      // The setup and the one edit that won: the others left no row.
      expect(history.items.map((change) => change.actor).sort()).toEqual(['setup', expect.stringMatching(/^editor-\d$/)].sort());
    }
  });

  it('saves exactly one of several edits that each expected the key absent', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const results = await Promise.all(
        Array.from({ length: EDITORS }, (_, editor) => edit(round, editor, { present: false }, `new${round}`)),
      );
      expect(
        results.filter((result) => result.ok),
        `round ${round}`,
      ).toHaveLength(1);
      const history = await database.service.getKeyHistory({ appName: app, scope: 'user', userId: 'u', key: `new${round}` });
      expect(history.items).toHaveLength(1);
    }
  });

  it('tells the loser what the key holds now and who wrote it', async () => {
    await database.service.editState({
      scope: 'user',
      appName: app,
      userId: 'u',
      changes: { told: 'start' },
      actor: 'setup',
      reason: 'setup',
    });
    expect(await edit(0, 1, { present: true, value: 'start' }, 'told')).toMatchObject({ ok: true });
    expect(await edit(0, 2, { present: true, value: 'start' }, 'told')).toEqual({
      ok: false,
      code: 'CONFLICT',
      message: 'Someone changed this state since you opened the edit; nothing was saved. Review the new values and confirm again.',
      fieldErrors: { 'changes.0.key': 'changed since you opened it: it is now "from 1" by editor-1' },
    });
  });
});
