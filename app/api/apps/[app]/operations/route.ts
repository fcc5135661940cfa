// GET /api/apps/{app}/operations — the session operations history (forks, imports, title edits,
// deletions), newest first; ?userId= and ?sessionId= narrow it.
import { z } from 'zod';
import { route } from '@/lib/http/handler';
import { otherMethods } from '@/lib/http/methods';
import { appNameOf, type AppParams } from '@/lib/http/params';
import { pageQuery, parseQuery } from '@/lib/http/query';
import { json } from '@/lib/http/respond';
import { getStore } from '@/lib/services';
import { capability } from '@/lib/session-service/operations';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

const query = z.object({ userId: z.string().optional(), sessionId: z.string().optional(), ...pageQuery });

export const GET = route<AppParams>(async (request, params) => {
  const { userId, sessionId, limit, offset } = parseQuery(request, query);
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

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET');
