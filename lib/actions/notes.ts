'use server';

import { addNoteCommand, addNoteInput, removeNoteCommand, removeNoteInput } from '../commands/notes';
import { userPath } from '../paths';
import { getNotes, getStore } from '../services';
import { WRITE_ROLES } from './authorize';
import { defineAction } from './define';

const noteContext = async () => ({ ...(await getNotes()), store: await getStore() });

// The user's lists show notes as well as the session page: every page under the user is re-rendered.
export const addNote = defineAction({
  name: 'addNote',
  role: WRITE_ROLES.notes,
  input: addNoteInput,
  run: async (input, principal) => addNoteCommand(await noteContext(), principal.name, input),
  revalidate: (input, result) => result.ok && [userPath(input.appName, input.userId), 'layout'],
});

export const removeNote = defineAction({
  name: 'removeNote',
  role: WRITE_ROLES.notes,
  input: removeNoteInput,
  run: async (input, principal) => removeNoteCommand(await noteContext(), principal.name, input),
  revalidate: (input, result) => result.ok && [userPath(input.appName, input.userId), 'layout'],
});
