// GET /api/apps/{app}/history?scope=app|user|session&userId=&sessionId=&key=&limit=&offset= — one key's history, newest first.
import { z } from 'zod';
import { idSchema } from '@/lib/validation/schemas';
import { MAX_KEY_LENGTH } from '@/lib/validation/limits';
import { route } from '@/lib/http/handler';
import { otherMethods } from '@/lib/http/methods';
import { appNameOf, type AppParams } from '@/lib/http/params';
import { pageQuery, parseQuery } from '@/lib/http/query';
import { json } from '@/lib/http/respond';
import { getStore } from '@/lib/services';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

const query = z
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

export const GET = route<AppParams>(async (request, params) => {
  const appName = appNameOf(params);
  const history = parseQuery(request, query);
  return json(await (await getStore()).getKeyHistory({ appName, ...history }));
});

/** Every other method: FastAPI's JSON 405 with Allow (OPTIONS: 204 with Allow). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET');
