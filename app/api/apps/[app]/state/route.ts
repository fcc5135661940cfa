// GET|PATCH /api/apps/{app}/state — the app tier, and support edits of it (recorded with actor and reason).
import { readJson } from '@/lib/http/body';
import { auditActor } from '@/lib/http/auth';
import { route } from '@/lib/http/handler';
import { otherMethods } from '@/lib/http/methods';
import { appNameOf, type AppParams } from '@/lib/http/params';
import { json } from '@/lib/http/respond';
import { parseStateEdit } from '@/lib/http/schemas/state-edit';
import { getStore } from '@/lib/services';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const GET = route<AppParams>(async (_request, params) => {
  const appName = appNameOf(params);
  return json({ entries: await (await getStore()).getAppState(appName) });
});

export const PATCH = route<AppParams>(async (request, params, principal) => {
  const appName = appNameOf(params);
  const edit = parseStateEdit(await readJson(request));
  const actor = auditActor(principal, edit.actor);
  const entries = await (await getStore()).editState({ scope: 'app', appName, ...edit, actor });
  return json({ entries });
});

/** Every other method: FastAPI's JSON 405 with Allow (OPTIONS: 204 with Allow). */
export const { POST, PUT, DELETE, OPTIONS } = otherMethods('GET', 'PATCH');
