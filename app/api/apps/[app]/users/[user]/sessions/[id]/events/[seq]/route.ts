// GET /api/apps/{app}/users/{user}/sessions/{id}/events/{seq} — one event by sequence number, with the changes it caused.
import { z } from 'zod';
import { readTimelineEvent } from '@/lib/data/session';
import { cutTimelineItem } from '@/lib/data/session-cut';
import { parseQuery } from '@/lib/http/query';
import { previewQuery } from '@/lib/http/schemas/preview';
import { route } from '@/lib/http/handler';
import { parseWith } from '@/lib/http/issues';
import { otherMethods } from '@/lib/http/methods';
import { sessionRefOf, type SessionParams } from '@/lib/http/params';
import { notFound } from '@/lib/http/problem';
import { json } from '@/lib/http/respond';
import { seqParam } from '@/lib/http/schemas/timeline';
import { getStore } from '@/lib/services';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** `{"seq", "event", "changes"}`; 404 for an unknown session or event; `preview=1` cuts large values. */
export const GET = route<SessionParams & { seq: string }>(async (request, params) => {
  const ref = sessionRefOf(params);
  const seq = parseWith(seqParam, params.seq, 'seq');
  const item = await readTimelineEvent(await getStore(), ref, seq);
  if (!item) throw notFound(`Event ${seq} not found in session ${ref.sessionId}.`);
  const { preview } = parseQuery(request, z.object(previewQuery));
  return json(preview ? cutTimelineItem(ref, item) : item);
});

/** Every other method: FastAPI's JSON 405 with Allow (OPTIONS: 204 with Allow). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET');
