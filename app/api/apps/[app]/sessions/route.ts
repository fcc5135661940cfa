// GET /api/apps/{app}/sessions?userId=&q=&stateKey=&stateValue=&limit=&offset= — session search across users.
import { z } from 'zod';
import { searchValueOf } from '@/lib/validation/search-value';
import { idSchema } from '@/lib/validation/schemas';
import { route } from '@/lib/http/handler';
import { otherMethods } from '@/lib/http/methods';
import { appNameOf, type AppParams } from '@/lib/http/params';
import { pageQuery, parseQuery } from '@/lib/http/query';
import { json } from '@/lib/http/respond';
import { getStore } from '@/lib/services';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

const query = z.object({
  userId: idSchema.optional(),
  q: z.string().optional(),
  stateKey: z.string().optional(),
  stateValue: z.string().transform(searchValueOf).optional(),
  ...pageQuery,
});

export const GET = route<AppParams>(async (request, params) => {
  const appName = appNameOf(params);
  const { q, ...search } = parseQuery(request, query);
  return json(await (await getStore()).searchSessions({ appName, idContains: q, ...search }));
});

/** Every other method: FastAPI's JSON 405 with Allow (OPTIONS: 204 with Allow). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET');
