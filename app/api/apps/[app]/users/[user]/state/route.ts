// GET|PATCH /api/apps/{app}/users/{user}/state — the user tier, and support edits of it.
import { readJson } from '@/lib/http/body';
import { auditActor } from '@/lib/http/auth';
import { route } from '@/lib/http/handler';
import { otherMethods } from '@/lib/http/methods';
import { userRefOf, type UserParams } from '@/lib/http/params';
import { json } from '@/lib/http/respond';
import { parseStateEdit } from '@/lib/http/schemas/state-edit';
import { getStore } from '@/lib/services';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const GET = route<UserParams>(async (_request, params) => {
  const { appName, userId } = userRefOf(params);
  return json({ entries: await (await getStore()).getUserState(appName, userId) });
});

export const PATCH = route<UserParams>(async (request, params, principal) => {
  const owner = userRefOf(params);
  const edit = parseStateEdit(await readJson(request));
  const actor = auditActor(principal, edit.actor);
  const entries = await (await getStore()).editState({ scope: 'user', ...owner, ...edit, actor });
  return json({ entries });
});

/** Every other method: FastAPI's JSON 405 with Allow (OPTIONS: 204 with Allow). */
export const { POST, PUT, DELETE, OPTIONS } = otherMethods('GET', 'PATCH');
