// Notes on sessions in Statehouse's own database: written, listed, searched,
// summed up for lists and removed (kept, with who removed them, for the
// audit log), on both databases Statehouse runs on.
import { describe, expect, it } from 'vitest';
import { SqlNoteStore } from '../stores/notes/sql-notes';
import { digestKey, NATIVE_STORE_ID } from '../session-service/notes';
import { useTestDatabase } from '../testing/use-test-database';
import { addNoteCommand, removeNoteCommand, type NoteContext } from './notes';

describe.each(['sqlite', 'postgresql'] as const)('notes on %s', (provider) => {
  const database = useTestDatabase(provider);
  const ref = { appName: 'notes-app', userId: 'carol', sessionId: 's1' };
  const context = (): NoteContext => ({
    notes: new SqlNoteStore(database.db.client, database.db.provider),
    storeId: NATIVE_STORE_ID,
    store: database.service,
  });

  it('adds, lists, sums up, searches and removes notes, keeping removed ones for the audit log', async () => {
    await database.service.createSession(ref);
    await database.service.createSession({ ...ref, sessionId: 's2' });
    const first = await addNoteCommand(context(), 'ann', { ...ref, text: '  Carol was refunded twice: 50%_off code  ' });
    expect(first).toMatchObject({ ok: true, data: { author: 'ann', text: 'Carol was refunded twice: 50%_off code', removed: null } });
    const second = await addNoteCommand(context(), 'bob', { ...ref, text: 'Called back, waiting on billing' });
    expect(second.ok).toBe(true);

    const notes = context().notes;
    expect((await notes.list({ storeId: NATIVE_STORE_ID, ...ref })).map((note) => note.author)).toEqual(['ann', 'bob']);
    const digests = await notes.digests(NATIVE_STORE_ID, ref.appName, [
      { userId: 'carol', sessionId: 's1' },
      { userId: 'carol', sessionId: 's2' },
    ]);
    expect(digests.get(digestKey('carol', 's1'))).toMatchObject({ count: 2, latest: { author: 'bob' } });
    expect(digests.has(digestKey('carol', 's2'))).toBe(false);

    // Case-insensitive, LIKE's wildcards taken literally, by author too; another store's notes are not found.
    expect((await notes.search({ storeId: NATIVE_STORE_ID, text: 'REFUNDED' })).total).toBe(1);
    expect((await notes.search({ storeId: NATIVE_STORE_ID, text: '50%_o' })).total).toBe(1);
    expect((await notes.search({ storeId: NATIVE_STORE_ID, text: '%' })).total).toBe(1);
    expect((await notes.search({ storeId: NATIVE_STORE_ID, text: 'bob' })).items.map((note) => note.author)).toEqual(['bob']);
    expect((await notes.search({ storeId: 'agents', text: 'refunded' })).total).toBe(0);

    const id = first.ok ? first.data.id : 0;
    expect(await removeNoteCommand(context(), 'lead', { ...ref, id })).toMatchObject({ ok: true, data: { removed: { by: 'lead' } } });
    expect(await removeNoteCommand(context(), 'lead', { ...ref, id })).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
    expect((await notes.list({ storeId: NATIVE_STORE_ID, ...ref })).map((note) => note.author)).toEqual(['bob']);
    expect((await notes.search({ storeId: NATIVE_STORE_ID, text: 'refunded' })).total).toBe(0);
    const history = await notes.history({ storeId: NATIVE_STORE_ID, appName: ref.appName, actor: 'lead' });
    expect(history.items).toMatchObject([{ id, author: 'ann', removed: { by: 'lead' } }]);
  });

  it('refuses an empty note, a note on no session, and a note on another session’s note id', async () => {
    expect(await addNoteCommand(context(), 'ann', { ...ref, text: '   ' })).toMatchObject({
      ok: false,
      fieldErrors: { text: expect.any(String) },
    });
    expect(await addNoteCommand(context(), 'ann', { ...ref, sessionId: 'nope', text: 'x' })).toMatchObject({
      ok: false,
      code: 'NOT_FOUND',
    });
    const note = await addNoteCommand(context(), 'ann', { ...ref, text: 'mine' });
    const id = note.ok ? note.data.id : 0;
    expect(await removeNoteCommand(context(), 'ann', { ...ref, sessionId: 's2', id })).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
  });
});
