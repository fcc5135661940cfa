// GET /api/apps/{app}/users?q=&limit=&offset= — users of an app (with sessions or user state), most recent first.
import { z } from 'zod';
import { route } from '@/lib/http/handler';
import { otherMethods } from '@/lib/http/methods';
import { appNameOf, type AppParams } from '@/lib/http/params';
import { pageQuery, parseQuery } from '@/lib/http/query';
import { json } from '@/lib/http/respond';
import { getStore } from '@/lib/services';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

const query = z.object({ q: z.string().optional(), ...pageQuery });

export const GET = route<AppParams>(async (request, params) => {
  const appName = appNameOf(params);
  const { q, limit, offset } = parseQuery(request, query);
  return json(await (await getStore()).listUsers(appName, { idContains: q, limit, offset }));
});

/** Every other method: FastAPI's JSON 405 with Allow (OPTIONS: 204 with Allow). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET');
