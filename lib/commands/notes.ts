// Notes on a session: written and removed in Statehouse's own database, for
// any served store, by the console's actions and any API door alike.
import { z } from 'zod';
import { invalidInput, sessionNotFound } from '../session-service/errors';
import { nowSeconds } from '../session-service/events';
import { MAX_NOTE_LENGTH, type NoteStore, type NoteTarget, type SessionNote } from '../session-service/notes';
import type { SessionStore } from '../session-service/store';
import { freeTextProblem } from '../validation/text';
import { fieldErrorsOf, idSchema, typedText } from '../validation/schemas';
import { attempt, invalid, type ActionResult } from './result';

const refSchema = z.object({ appName: idSchema, userId: idSchema, sessionId: idSchema });

export const noteText = typedText(MAX_NOTE_LENGTH, 'write the note', freeTextProblem);

export const addNoteInput = refSchema.extend({ text: noteText });
export type AddNoteInput = z.input<typeof addNoteInput>;

export const removeNoteInput = refSchema.extend({ id: z.number({ error: 'must be a note id' }).int().positive() });
export type RemoveNoteInput = z.input<typeof removeNoteInput>;

/** Where notes go and which store's sessions they are about. */
export interface NoteContext {
  notes: NoteStore;
  storeId: string;
  store: SessionStore;
}

async function requireSession(store: SessionStore, ref: z.output<typeof refSchema>): Promise<void> {
  if (!(await store.getSessionSummary(ref))) throw sessionNotFound(ref.sessionId);
}

/** A note by `author` on an existing session. */
export async function addNoteCommand(context: NoteContext, author: string, raw: unknown): Promise<ActionResult<SessionNote>> {
  const parsed = addNoteInput.safeParse(raw);
  if (!parsed.success) return invalid(fieldErrorsOf(parsed.error));
  const { text, ...ref } = parsed.data;
  return attempt(async () => {
    await requireSession(context.store, ref);
    const target: NoteTarget = { storeId: context.storeId, ...ref };
    return context.notes.add(target, { author, text }, nowSeconds());
  });
}

/** Marks a note removed, keeping it (and who removed it) in the audit trail. */
export async function removeNoteCommand(context: NoteContext, by: string, raw: unknown): Promise<ActionResult<SessionNote>> {
  const parsed = removeNoteInput.safeParse(raw);
  if (!parsed.success) return invalid(fieldErrorsOf(parsed.error));
  const { id, ...ref } = parsed.data;
  return attempt(async () => {
    const removed = await context.notes.remove({ storeId: context.storeId, ...ref }, id, by, nowSeconds());
    if (!removed) throw invalidInput(`Session ${ref.sessionId} has no note ${id} (it may have been removed already).`);
    return removed;
  });
}
