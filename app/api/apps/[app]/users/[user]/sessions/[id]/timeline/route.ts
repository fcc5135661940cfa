// GET /api/apps/{app}/users/{user}/sessions/{id}/timeline — events oldest first, each with the state changes it caused.
import { readTimeline } from '@/lib/data/session';
import { cutTimelineItem } from '@/lib/data/session-cut';
import { previewQuery } from '@/lib/http/schemas/preview';
import { route } from '@/lib/http/handler';
import { otherMethods } from '@/lib/http/methods';
import { sessionRefOf, type SessionParams } from '@/lib/http/params';
import { parseQuery } from '@/lib/http/query';
import { json } from '@/lib/http/respond';
import { timelineQuery } from '@/lib/http/schemas/timeline';
import { getStore } from '@/lib/services';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** `{"items": [{"seq", "event", "changes": [StateChange]}], "total"}`; filters `author`, `invocationId`, `key`; `after`, `limit`, `offset`; `preview=1` cuts large values. */
export const GET = route<SessionParams>(async (request, params) => {
  const ref = sessionRefOf(params);
  const { preview, ...query } = parseQuery(request, timelineQuery.extend(previewQuery));
  const timeline = await readTimeline(await getStore(), ref, query);
  return json(preview ? { ...timeline, items: timeline.items.map((item) => cutTimelineItem(ref, item)) } : timeline);
});

/** Every other method: FastAPI's JSON 405 with Allow (OPTIONS: 204 with Allow). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET');
