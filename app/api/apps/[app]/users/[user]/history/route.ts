// GET /api/apps/{app}/users/{user}/history?since=&limit=&offset= — every user-tier change of one user, newest first.
import { z } from 'zod';
import { route } from '@/lib/http/handler';
import { otherMethods } from '@/lib/http/methods';
import { userRefOf, type UserParams } from '@/lib/http/params';
import { pageQuery, parseQuery, secondsParam } from '@/lib/http/query';
import { json } from '@/lib/http/respond';
import { getStore } from '@/lib/services';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

const query = z.object({ since: secondsParam().optional(), ...pageQuery });

export const GET = route<UserParams>(async (request, params) => {
  const { appName, userId } = userRefOf(params);
  const page = parseQuery(request, query);
  return json(await (await getStore()).getUserHistory(appName, userId, page));
});

/** Every other method: FastAPI's JSON 405 with Allow (OPTIONS: 204 with Allow). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET');
