// DELETE /api/apps/{app} — clears the app's data for good (sessions, events, state, history): test suites' clean-up.
import { route } from '@/lib/http/handler';
import { getStore } from '@/lib/services';
import { otherMethods } from '@/lib/http/methods';
import { appNameOf, type AppParams } from '@/lib/http/params';
import { json } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** `200 null`, also when the app has no data. */
export const DELETE = route<AppParams>(async (_request, params) => {
  await (await getStore()).clearData({ appName: appNameOf(params) });
  return json(null);
});

/** Every other method: FastAPI's JSON 405 with Allow (OPTIONS: 204 with Allow). */
export const { GET, HEAD, POST, PUT, PATCH, OPTIONS } = otherMethods('DELETE');
