// GET /api/apps/{app}/users/{user}/sessions/{id}/value — the whole of a value the session page showed cut (lib/data/value-cut.ts).
import { z } from 'zod';
import { readTimelineEvent } from '@/lib/data/session';
import { sessionStateView } from '@/lib/data/session-state';
import { valueAt } from '@/lib/data/value-cut';
import { route } from '@/lib/http/handler';
import { otherMethods } from '@/lib/http/methods';
import { sessionRefOf, type SessionParams } from '@/lib/http/params';
import { notFound } from '@/lib/http/problem';
import { parseWith } from '@/lib/http/issues';
import { queryValues, storedIntegerParam } from '@/lib/http/query';
import { json } from '@/lib/http/respond';
import { getStore } from '@/lib/services';
import type { JsonValue } from '@/lib/session-service/types';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

const pointer = z
  .string()
  .max(4096)
  .regex(/^(\/[^/]*)*$/, 'must be a JSON pointer')
  .default('');
const seq = z.string({ error: 'is required' }).pipe(storedIntegerParam(1));
const query = z.discriminatedUnion('at', [
  z.object({ at: z.literal('event'), seq, pointer }),
  z.object({ at: z.literal('change'), seq, change: z.string().pipe(storedIntegerParam(1)), side: z.enum(['old', 'new']), pointer }),
  z.object({
    at: z.literal('state'),
    tier: z.enum(['app', 'user', 'session']),
    key: z.string().max(1024),
    asOf: storedIntegerParam(1).optional(),
    pointer,
  }),
]);

/** `{"value": ...}`: part of an event, of a change it caused, or of a state value (now or as of an event); 404 when there is none. */
export const GET = route<SessionParams>(async (request, params) => {
  const ref = sessionRefOf(params);
  const at = parseWith(query, queryValues(request, ['at', 'seq', 'change', 'side', 'tier', 'key', 'asOf', 'pointer']));
  const store = await getStore();
  let whole: JsonValue | undefined;
  if (at.at === 'state') {
    const view = await sessionStateView(store, ref, at.asOf);
    whole = view[at.tier].find((entry) => entry.key === at.key)?.value;
  } else {
    const item = await readTimelineEvent(store, ref, at.seq);
    if (at.at === 'event') whole = item?.event as JsonValue | undefined;
    else {
      const change = item?.changes.find((candidate) => candidate.id === at.change);
      whole = at.side === 'old' ? change?.oldValue : change?.newValue;
    }
  }
  const value = valueAt(whole, at.pointer);
  if (value === undefined) throw notFound('No such value in this session.');
  return json({ value });
});

/** Every other method: FastAPI's JSON 405 with Allow (OPTIONS: 204 with Allow). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET');
