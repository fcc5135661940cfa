// History: one key's changes, a user's shared-tier changes, and the session operations log; newest first.
import { z } from 'zod';
import { getStore } from '../../services';
import { capability } from '../../session-service/operations';
import { MAX_KEY_LENGTH } from '../../validation/limits';
import { idSchema } from '../../validation/schemas';
import { route } from '../handler';
import { appNameOf, userRefOf, type AppParams, type UserParams } from '../params';
import { pageQuery, parseQuery, secondsParam } from '../query';
import { json } from '../respond';

const keyHistoryQuery = z
  .object({
    scope: z.enum(['app', 'user', 'session'], { error: 'must be app, user or session' }),
    userId: idSchema.optional(),
    sessionId: idSchema.optional(),
    /** The key within its tier, without the app:/user: prefix. */
    key: z.string({ error: 'is required' }).max(MAX_KEY_LENGTH, `must be at most ${MAX_KEY_LENGTH} characters`),
    ...pageQuery,
  })
  .refine((q) => q.scope === 'app' || q.userId !== undefined, { path: ['userId'], message: 'is required for user and session scope' })
  .refine((q) => q.scope !== 'session' || q.sessionId !== undefined, { path: ['sessionId'], message: 'is required for session scope' });

/** `?scope=app|user|session&userId=&sessionId=&key=&limit=&offset=`: one key's history. */
export const getKeyHistory = route<AppParams>(async (request, params) => {
  const appName = appNameOf(params);
  const history = parseQuery(request, keyHistoryQuery);
  return json(await (await getStore()).getKeyHistory({ appName, ...history }));
});

const userHistoryQuery = z.object({ since: secondsParam().optional(), ...pageQuery });

/** `?since=&limit=&offset=`: every app- and user-tier change of one user. */
export const getUserHistory = route<UserParams>(async (request, params) => {
  const { appName, userId } = userRefOf(params);
  const page = parseQuery(request, userHistoryQuery);
  return json(await (await getStore()).getUserHistory(appName, userId, page));
});

const operationsQuery = z.object({ userId: z.string().optional(), sessionId: z.string().optional(), ...pageQuery });

/** The session operations history (forks, imports, title edits, deletions); `?userId=` and `?sessionId=` narrow it. */
export const listOperations = route<AppParams>(async (request, params) => {
  const { userId, sessionId, limit, offset } = parseQuery(request, operationsQuery);
  const page = await capability(
    await getStore(),
    'listOperations',
  )({
    appName: appNameOf(params),
    ...(userId === undefined ? {} : { userId }),
    ...(sessionId === undefined ? {} : { sessionId }),
    ...(limit === undefined ? {} : { limit }),
    ...(offset === undefined ? {} : { offset }),
  });
  return json(page);
});
