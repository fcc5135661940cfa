// GET /api/apps/{app}/users/{user}/sessions/{id}/state?asOf=<seq> — the three tiers separately, now or right after an event.
import { z } from 'zod';
import { route } from '@/lib/http/handler';
import { otherMethods } from '@/lib/http/methods';
import { sessionRefOf, type SessionParams } from '@/lib/http/params';
import { parseQuery, storedIntegerParam } from '@/lib/http/query';
import { json } from '@/lib/http/respond';
import { cutStateView } from '@/lib/data/session-cut';
import { sessionStateView } from '@/lib/data/session-state';
import { previewQuery } from '@/lib/http/schemas/preview';
import { getStore } from '@/lib/services';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

const query = z.object({ asOf: storedIntegerParam(0).optional(), ...previewQuery });

export const GET = route<SessionParams>(async (request, params) => {
  const ref = sessionRefOf(params);
  const { asOf, preview } = parseQuery(request, query);
  const view = await sessionStateView(await getStore(), ref, asOf);
  return json(preview ? cutStateView(ref, view, asOf) : view);
});

/** Every other method: FastAPI's JSON 405 with Allow (OPTIONS: 204 with Allow). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET');
