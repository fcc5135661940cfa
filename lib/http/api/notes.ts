// Notes on a session over HTTP: list, add and remove, through the commands
// the console's note form runs (lib/commands/notes.ts). Notes live in
// Statehouse's own database for any served store; each is signed with the
// caller's name, and a removed one stays in the audit log with who removed it.
import { z } from 'zod';
import { addNoteCommand, noteText, removeNoteCommand } from '../../commands/notes';
import { getNotes, getStore } from '../../services';
import { sessionNotFound } from '../../session-service/errors';
import type { SessionNote } from '../../session-service/notes';
import { readJson } from '../body';
import { resultOf } from '../errors';
import { route } from '../handler';
import { parseWith } from '../../validation/issues';
import { sessionRefOf, type SessionParams } from '../params';
import { json } from '../respond';

/** A note as the API answers it: no store id (the path names the store). */
function noteJson({ storeId: _storeId, ...note }: SessionNote) {
  return note;
}

const noteBody = z.object({ text: noteText });
const noteIdParam = z.coerce.number({ error: 'must be a note id' }).int().positive().max(Number.MAX_SAFE_INTEGER);

const noteContext = async () => ({ ...(await getNotes()), store: await getStore() });

/** `{"items": [{"id", "author", "text", "time", ...}]}`, oldest first, removed ones left out; 404 for an unknown session. */
export const listNotes = route<SessionParams>(async (_request, params) => {
  const ref = sessionRefOf(params);
  const context = await noteContext();
  if (!(await context.store.getSessionSummary(ref))) throw sessionNotFound(ref.sessionId);
  const notes = await context.notes.list({ storeId: context.storeId, ...ref });
  return json({ items: notes.map(noteJson) });
});

/** Body `{"text": string}` (at most 4,000 characters): the note, signed with the caller's name; 201. */
export const addNote = route<SessionParams>(async (request, params, principal) => {
  const ref = sessionRefOf(params);
  const { text } = parseWith(noteBody, (await readJson(request)) ?? null);
  const note = resultOf(await addNoteCommand(await noteContext(), principal.name, { ...ref, text }));
  return json(noteJson(note), 201);
});

/** Removes note `{note}` of the session (kept for the audit log, with the caller as who removed it); answers the removed note. */
export const removeNote = route<SessionParams & { note: string }>(async (_request, params, principal) => {
  const ref = sessionRefOf(params);
  const id = parseWith(noteIdParam, params.note, 'note');
  return json(noteJson(resultOf(await removeNoteCommand(await noteContext(), principal.name, { ...ref, id }))));
});
