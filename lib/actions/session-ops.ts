'use server';

import { accountActor } from '../auth/principal';
import {
  forkCommand,
  forkCommandInput,
  importCommand,
  importCommandInput,
  metaCommand,
  metaCommandInput,
  pruneCommand,
  pruneCommandInput,
  rewindCommand,
  rewindCommandInput,
} from '../commands/session-ops';
import { appPath, sessionPath } from '../paths';
import { getStore } from '../services';
import { WRITE_ROLES } from './authorize';
import { actionFamily, defineAction, underUser } from './define';

/** Session operations write the request's store as the signed-in account. */
const sessionOp = actionFamily({ role: WRITE_ROLES.sessionOps, context: getStore });

export const forkSession = defineAction(sessionOp('forkSession', forkCommandInput, forkCommand, underUser));

export const rewindSession = defineAction({
  name: 'rewindSession',
  role: WRITE_ROLES.sessionOps,
  input: rewindCommandInput,
  // The rewind event's author: no account name in local mode.
  run: async (input, principal) => rewindCommand(await getStore(), accountActor(principal), input),
  revalidate: (input, result) => result.ok && [sessionPath(input.appName, input.userId, input.sessionId)],
});

export const setSessionMeta = defineAction(sessionOp('setSessionMeta', metaCommandInput, metaCommand, underUser));

export const importSessions = defineAction(
  sessionOp(
    'importSessions',
    importCommandInput,
    importCommand,
    (input, result) => result.ok && result.data.written && [appPath(input.appName), 'layout'],
  ),
);

export const pruneSessions = defineAction(
  sessionOp(
    'pruneSessions',
    pruneCommandInput,
    pruneCommand,
    (input, result) => result.ok && !input.dryRun && [appPath(input.appName), 'layout'],
    WRITE_ROLES.prune,
  ),
);
