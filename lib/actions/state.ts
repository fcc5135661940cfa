'use server';

import { revalidatePath } from 'next/cache';
import { currentActor } from '../auth/actor';
import { editStateCommand, type EditStateInput } from '../commands/edit-state';
import { getSessionService } from '../data/service';
import { appPath, userPath } from '../paths';
import type { StateEntry } from '../session-service/types';
import type { ActionResult } from './result';

/** Support edits of app or user state; every session page of that app or user shows the change. */
export async function editState(input: EditStateInput): Promise<ActionResult<StateEntry[]>> {
  const result = await editStateCommand(await getSessionService(), await currentActor(), input);
  if (result.ok) {
    const path = input.scope === 'user' && input.userId ? userPath(input.appName, input.userId) : appPath(input.appName);
    revalidatePath(path, 'layout');
  }
  return result;
}
