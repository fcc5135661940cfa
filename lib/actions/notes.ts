'use server';

import { addNoteCommand, addNoteInput, removeNoteCommand, removeNoteInput } from '../commands/notes';
import { getNotes, getStore } from '../services';
import { WRITE_ROLES } from './authorize';
import { actionFamily, defineAction, underUser } from './define';

/** Notes are kept beside the request's store, written as the signed-in account. */
const noteWrite = actionFamily({
  role: WRITE_ROLES.notes,
  context: async () => ({ ...(await getNotes()), store: await getStore() }),
});

// The user's lists show notes as well as the session page: every page under the user is re-rendered.
export const addNote = defineAction(noteWrite('addNote', addNoteInput, addNoteCommand, underUser));

export const removeNote = defineAction(noteWrite('removeNote', removeNoteInput, removeNoteCommand, underUser));
