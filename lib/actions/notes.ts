'use server';

import { revalidatePath } from 'next/cache';
import { addNoteCommand, removeNoteCommand, type AddNoteInput, type RemoveNoteInput } from '../commands/notes';
import { failure, type ActionResult } from '../commands/result';
import { sessionPath, userPath } from '../paths';
import { getNotes, getStore } from '../services';
import type { SessionNote } from '../session-service/notes';
import { principalFor, WRITE_ROLES } from './authorize';

async function asNoteWriter(command: (author: string) => Promise<ActionResult<SessionNote>>): Promise<ActionResult<SessionNote>> {
  try {
    const allowed = await principalFor(WRITE_ROLES.notes);
    if (!allowed.ok) return allowed;
    return await command(allowed.principal.name);
  } catch (error) {
    return failure(error);
  }
}

const noteContext = async () => ({ ...(await getNotes()), store: await getStore() });

/** The lists show notes too: the session's user page and app page are revalidated with it. */
function revalidateNotes(input: { appName: string; userId: string; sessionId: string }) {
  revalidatePath(sessionPath(input.appName, input.userId, input.sessionId));
  revalidatePath(userPath(input.appName, input.userId), 'layout');
}

export async function addNote(input: AddNoteInput): Promise<ActionResult<SessionNote>> {
  const result = await asNoteWriter(async (author) => addNoteCommand(await noteContext(), author, input));
  if (result.ok) revalidateNotes(result.data);
  return result;
}

export async function removeNote(input: RemoveNoteInput): Promise<ActionResult<SessionNote>> {
  const result = await asNoteWriter(async (by) => removeNoteCommand(await noteContext(), by, input));
  if (result.ok) revalidateNotes(result.data);
  return result;
}
