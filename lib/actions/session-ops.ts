'use server';

import { revalidatePath } from 'next/cache';
import { accountActor } from '../auth/principal';
import type { ImportReport } from '../commands/import-sessions';
import { failure, type ActionResult } from '../commands/result';
import {
  forkCommand,
  importCommand,
  metaCommand,
  pruneCommand,
  rewindCommand,
  type ForkCommandInput,
  type ImportCommandInput,
  type MetaCommandInput,
  type PruneCommandInput,
  type RewindCommandInput,
} from '../commands/session-ops';
import { appPath, sessionPath, userPath } from '../paths';
import { getStore } from '../services';
import type { PruneCount, SessionMeta } from '../session-service/operations';
import type { RewindOutcome } from '../session-service/rewind';
import type { SessionSummary } from '../session-service/types';
import { principalFor, WRITE_ROLES, type DashboardWrite } from './authorize';

/** Runs a command as the signed-in principal when their role allows `write`. */
async function as<T>(
  write: DashboardWrite,
  command: (actor: string, auditActor: string | undefined) => Promise<ActionResult<T>>,
): Promise<ActionResult<T>> {
  try {
    const allowed = await principalFor(WRITE_ROLES[write]);
    if (!allowed.ok) return allowed;
    return await command(allowed.principal.name, accountActor(allowed.principal));
  } catch (error) {
    return failure(error);
  }
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

export async function forkSession(input: ForkCommandInput): Promise<ActionResult<SessionSummary>> {
  const result = await as('sessionOps', async (actor) => forkCommand(await getStore(), actor, input));
  if (result.ok) revalidatePath(userPath(input.appName, input.userId), 'layout');
  return result;
}

export async function rewindSession(input: RewindCommandInput): Promise<ActionResult<RewindOutcome>> {
  const result = await as('sessionOps', async (_actor, actor) => rewindCommand(await getStore(), actor, input));
  if (result.ok) revalidatePath(sessionPath(input.appName, input.userId, input.sessionId));
  return result;
}

export async function setSessionMeta(input: MetaCommandInput): Promise<ActionResult<SessionMeta>> {
  const result = await as('sessionOps', async (actor) => metaCommand(await getStore(), actor, input));
  if (result.ok) revalidatePath(userPath(input.appName, input.userId), 'layout');
  return result;
}

export async function importSessions(input: ImportCommandInput): Promise<ActionResult<ImportReport>> {
  const result = await as('sessionOps', async (actor) => importCommand(await getStore(), actor, input));
  if (result.ok && result.data.written) revalidatePath(appPath(input.appName), 'layout');
  return result;
}

export async function pruneSessions(input: PruneCommandInput): Promise<ActionResult<PruneCount>> {
  const result = await as('prune', async (actor) => pruneCommand(await getStore(), actor, input));
  if (result.ok && (input as { dryRun?: boolean }).dryRun === false) revalidatePath(appPath(text(input.appName)), 'layout');
  return result;
}
