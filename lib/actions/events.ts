'use server';

import { revalidatePath } from 'next/cache';
import { appendEventCommand, type AppendEventInput, type AppendEventOutput } from '../commands/append-event';
import { getSessionService } from '../data/service';
import { sessionPath } from '../paths';
import type { ActionResult } from './result';

export async function appendEvent(input: AppendEventInput): Promise<ActionResult<AppendEventOutput>> {
  const result = await appendEventCommand(await getSessionService(), input);
  if (result.ok) revalidatePath(sessionPath(input.appName, input.userId, input.sessionId));
  return result;
}
