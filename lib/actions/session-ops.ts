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
import { appPath, sessionPath, userPath } from '../paths';
import { getStore } from '../services';
import { WRITE_ROLES } from './authorize';
import { defineAction } from './define';

export const forkSession = defineAction({
  name: 'forkSession',
  role: WRITE_ROLES.sessionOps,
  input: forkCommandInput,
  run: async (input, principal) => forkCommand(await getStore(), principal.name, input),
  revalidate: (input, result) => result.ok && [userPath(input.appName, input.userId), 'layout'],
});

export const rewindSession = defineAction({
  name: 'rewindSession',
  role: WRITE_ROLES.sessionOps,
  input: rewindCommandInput,
  run: async (input, principal) => rewindCommand(await getStore(), accountActor(principal), input),
  revalidate: (input, result) => result.ok && [sessionPath(input.appName, input.userId, input.sessionId)],
});

export const setSessionMeta = defineAction({
  name: 'setSessionMeta',
  role: WRITE_ROLES.sessionOps,
  input: metaCommandInput,
  run: async (input, principal) => metaCommand(await getStore(), principal.name, input),
  revalidate: (input, result) => result.ok && [userPath(input.appName, input.userId), 'layout'],
});

export const importSessions = defineAction({
  name: 'importSessions',
  role: WRITE_ROLES.sessionOps,
  input: importCommandInput,
  run: async (input, principal) => importCommand(await getStore(), principal.name, input),
  revalidate: (input, result) => result.ok && result.data.written && [appPath(input.appName), 'layout'],
});

export const pruneSessions = defineAction({
  name: 'pruneSessions',
  role: WRITE_ROLES.prune,
  input: pruneCommandInput,
  run: async (input, principal) => pruneCommand(await getStore(), principal.name, input),
  revalidate: (input, result) => result.ok && !input.dryRun && [appPath(input.appName), 'layout'],
});
