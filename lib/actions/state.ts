'use server';

import { revalidatePath } from 'next/cache';
import { editStateCommand, type EditStateInput } from '../commands/edit-state';
import { getStore } from '../services';
import { appPath, userPath } from '../paths';
import type { StateEntry } from '../session-service/types';
import { principalFor, WRITE_ROLES } from './authorize';
import { failure, type ActionResult } from '../commands/result';

function isAppEdit(input: unknown): boolean {
  return typeof input !== 'object' || input === null || (input as { scope?: unknown }).scope !== 'user';
}

/** Support edits of app or user state; every page of that app or user shows the change. */
export async function editState(input: EditStateInput): Promise<ActionResult<StateEntry[]>> {
  let result: ActionResult<StateEntry[]>;
  try {
    const allowed = await principalFor(WRITE_ROLES[isAppEdit(input) ? 'appState' : 'userState']);
    if (!allowed.ok) return allowed;
    result = await editStateCommand(await getStore(), allowed.principal.name, input);
  } catch (error) {
    return failure(error);
  }
  // A conflict means the page shows old values: send the current ones with the answer.
  if (result.ok || result.code === 'CONFLICT') {
    const path = input.scope === 'user' && input.userId ? userPath(input.appName, input.userId) : appPath(input.appName);
    revalidatePath(path, 'layout');
  }
  return result;
}
