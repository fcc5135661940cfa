// GET /api/apps/{app}/users/{user}/sessions/{id}/timeline/position?seq= — where an event sits in the (filtered) timeline.
import { locateEvent } from '@/lib/data/session';
import { route } from '@/lib/http/handler';
import { otherMethods } from '@/lib/http/methods';
import { sessionRefOf, type SessionParams } from '@/lib/http/params';
import { parseQuery } from '@/lib/http/query';
import { json } from '@/lib/http/respond';
import { positionQuery } from '@/lib/http/schemas/timeline';
import { getStore } from '@/lib/services';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** `{"seq", "index": n | null, "total"}`: index among the events passing the filters, null when they exclude it. */
export const GET = route<SessionParams>(async (request, params) => {
  const ref = sessionRefOf(params);
  const { seq, ...filters } = parseQuery(request, positionQuery);
  return json(await locateEvent(await getStore(), ref, filters, seq));
});

/** Every other method: FastAPI's JSON 405 with Allow (OPTIONS: 204 with Allow). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET');
