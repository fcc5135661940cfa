// DELETE /api/apps/{app}/users/{user} — clears one user's data for good (sessions, user state, their history); app state stays.
import { route } from '@/lib/http/handler';
import { getStore } from '@/lib/services';
import { otherMethods } from '@/lib/http/methods';
import { userRefOf, type UserParams } from '@/lib/http/params';
import { json } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** `200 null`, also when the user has no data. */
export const DELETE = route<UserParams>(async (_request, params) => {
  await (await getStore()).clearData(userRefOf(params));
  return json(null);
});

/** Every other method: FastAPI's JSON 405 with Allow (OPTIONS: 204 with Allow). */
export const { GET, HEAD, POST, PUT, PATCH, OPTIONS } = otherMethods('DELETE');
