// GET /api/list-apps — ADK's app list: names of apps with sessions or state, sorted.
import { plainRoute } from '@/lib/http/handler';
import { otherMethods } from '@/lib/http/methods';
import { json } from '@/lib/http/respond';
import { getStore } from '@/lib/services';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const GET = plainRoute(async () => {
  const apps = await (await getStore()).listApps();
  return json(apps.map((app) => app.appName));
});

/** Every other method: FastAPI's JSON 405 with Allow (OPTIONS: 204 with Allow). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET');
