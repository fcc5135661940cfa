// GET|PATCH /api/apps/{app}/users/{user}/sessions/{id}/meta — Statehouse's own fields of a session:
// title, labels, and its fork links. ADK's session shape stays as it is; these live beside it.
import { z } from 'zod';
import { readJson } from '@/lib/http/body';
import { route } from '@/lib/http/handler';
import { parseWith } from '@/lib/http/issues';
import { otherMethods } from '@/lib/http/methods';
import { sessionRefOf, type SessionParams } from '@/lib/http/params';
import { json } from '@/lib/http/respond';
import { getStore } from '@/lib/services';
import { sessionNotFound } from '@/lib/session-service/errors';
import { capability } from '@/lib/session-service/operations';
import { metaInput } from '@/lib/validation/session-ops';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** `{"title", "labels", "forkedFrom": {"sessionId", "atSeq"} | null, "forks": [...]}`; 404 for an unknown session. */
export const GET = route<SessionParams>(async (_request, params) => {
  const ref = sessionRefOf(params);
  const meta = await capability(await getStore(), 'getSessionMeta')(ref);
  if (!meta) throw sessionNotFound(ref.sessionId);
  return json(meta);
});

const body = z.intersection(metaInput, z.object({ reason: z.string().max(500).optional() }));

/** Body `{"title"?: string | null, "labels"?: string[]}`: what is given replaces what was; returns the meta. */
export const PATCH = route<SessionParams>(async (request, params, principal) => {
  const ref = sessionRefOf(params);
  const input = parseWith(body, (await readJson(request)) ?? null);
  const edit = {
    ...(input.title === undefined ? {} : { title: input.title }),
    ...(input.labels === undefined ? {} : { labels: input.labels }),
  };
  return json(await capability(await getStore(), 'setSessionMeta')(ref, edit, { actor: principal.name, reason: input.reason }));
});

export const { POST, PUT, DELETE, OPTIONS } = otherMethods('GET', 'PATCH');
