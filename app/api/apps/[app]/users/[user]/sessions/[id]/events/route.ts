// GET|POST /api/apps/{app}/users/{user}/sessions/{id}/events — the event log page by page; append one ADK event.
import { z } from 'zod';
import { readJson } from '@/lib/http/body';
import { appendOptionsFor, authorizeStateWrite } from '@/lib/http/auth';
import { route } from '@/lib/http/handler';
import { expectedRevisionOf, revisionTag } from '@/lib/http/if-match';
import { otherMethods } from '@/lib/http/methods';
import { sessionRefOf, type SessionParams } from '@/lib/http/params';
import { pageQuery, parseQuery, storedIntegerParam } from '@/lib/http/query';
import { json } from '@/lib/http/respond';
import { parseEvent } from '@/lib/http/schemas/event';
import { getStore } from '@/lib/services';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

const query = z.object({
  after: storedIntegerParam(0).optional(),
  order: z.enum(['asc', 'desc'], { error: 'must be asc or desc' }).optional(),
  author: z.string().optional(),
  invocationId: z.string().optional(),
  /** A prefixed state key (`app:x`, `user:y`, `z`): events whose delta touched it. */
  key: z.string().optional(),
  ...pageQuery,
});

/** `{"items": [{"seq", "event"}], "total"}`, by sequence number; 404 for an unknown session. */
export const GET = route<SessionParams>(async (request, params) => {
  const ref = sessionRefOf(params);
  const { after, order, key, ...filters } = parseQuery(request, query);
  const page = await (
    await getStore()
  ).listEvents(ref, {
    ...filters,
    afterSeq: after,
    newestFirst: order === 'desc',
    touchedKey: key,
  });
  return json(page);
});

/** Body: one ADK event. `If-Match: <revision>` makes it a compare-and-swap (409 when stale). Returns the stored event. */
export const POST = route<SessionParams>(async (request, params, principal) => {
  const ref = sessionRefOf(params);
  const expected = expectedRevisionOf(request);
  const event = parseEvent((await readJson(request)) ?? null);
  authorizeStateWrite(principal, { events: [event] });
  const result = await (await getStore()).append(ref, event, { ...appendOptionsFor(principal), expectedRevision: expected });
  return json(result.event, 200, { ETag: revisionTag(result.revision) });
});

/** Every other method: FastAPI's JSON 405 with Allow (OPTIONS: 204 with Allow). */
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET', 'POST');
