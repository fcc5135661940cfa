// A session's events: the log page by page, appending one ADK event, one event with its changes, the timeline, and the whole of a value shown cut.
import { z } from 'zod';
import { readTimeline, readTimelineEvent, locateEvent } from '../../data/session';
import { cutTimelineItem } from '../../data/session-cut';
import { sessionStateView } from '../../data/session-state';
import { valueAt } from '../../data/value-cut';
import { getStore } from '../../services';
import type { JsonValue } from '../../session-service/types';
import { EVENT_DELTA_PATHS, spellingsAt } from '../../session-service/value-spelling';
import { appendCommand } from '../../commands/append-event';
import { appendOptionsFor } from '../auth';
import { resultOf } from '../errors';
import { readSpelledJson } from '../body';
import { route } from '../handler';
import { expectedRevisionOf, revisionTag } from '../if-match';
import { parseWith } from '../../validation/issues';
import { sessionRefOf, type SessionParams } from '../params';
import { notFound } from '../problem';
import { pageQuery, parseQuery, queryValues, storedIntegerParam } from '../query';
import { json } from '../respond';
import { pointer } from '../schemas/pointer';
import { parseEvent } from '../../validation/adk-event';
import { previewQuery } from '../schemas/preview';
import { positionQuery, seqParam, timelineQuery } from '../schemas/timeline';

const eventsQuery = z.object({
  after: storedIntegerParam(0).optional(),
  order: z.enum(['asc', 'desc'], { error: 'must be asc or desc' }).optional(),
  author: z.string().optional(),
  invocationId: z.string().optional(),
  /** A prefixed state key (`app:x`, `user:y`, `z`): events whose delta touched it. */
  key: z.string().optional(),
  ...pageQuery,
});

/** `{"items": [{"seq", "event"}], "total"}`, by sequence number; 404 for an unknown session. */
export const listEvents = route<SessionParams>(async (request, params) => {
  const ref = sessionRefOf(params);
  const { after, order, key, ...filters } = parseQuery(request, eventsQuery);
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
export const appendEvent = route<SessionParams>(async (request, params, principal) => {
  const ref = sessionRefOf(params);
  const expected = expectedRevisionOf(request);
  const body = await readSpelledJson(request);
  const event = parseEvent(body.value ?? null);
  // The delta's values as sent: a float written `2.0` is stored `2.0`.
  const spellings = spellingsAt(body.spelled, ...EVENT_DELTA_PATHS);
  const context = { role: principal.role, ...appendOptionsFor(principal), expectedRevision: expected, ...(spellings ? { spellings } : {}) };
  const result = resultOf(await appendCommand(await getStore(), ref, event, context));
  return json(result.event, 200, { ETag: revisionTag(result.revision) });
});

/** `{"seq", "event", "changes"}`; 404 for an unknown session or event; `preview=1` cuts large values. */
export const getEvent = route<SessionParams & { seq: string }>(async (request, params) => {
  const ref = sessionRefOf(params);
  const seq = parseWith(seqParam, params.seq, 'seq');
  const { preview } = parseQuery(request, z.object(previewQuery));
  const item = await readTimelineEvent(await getStore(), ref, seq, { preview });
  if (!item) throw notFound(`Event ${seq} not found in session ${ref.sessionId}.`);
  return json(preview ? cutTimelineItem(ref, item) : item);
});

/** `{"items": [{"seq", "event", "changes": [StateChange]}], "total"}`; filters `author`, `invocationId`, `key`; `after`, `limit`, `offset`; `preview=1` cuts large values. */
export const getTimeline = route<SessionParams>(async (request, params) => {
  const ref = sessionRefOf(params);
  const { preview, ...query } = parseQuery(request, timelineQuery.extend(previewQuery));
  const timeline = await readTimeline(await getStore(), ref, query, { preview });
  return json(preview ? { ...timeline, items: timeline.items.map((item) => cutTimelineItem(ref, item)) } : timeline);
});

/** `?seq=`: `{"seq", "index": n | null, "total"}`, index among the events passing the filters, null when they exclude it. */
export const getTimelinePosition = route<SessionParams>(async (request, params) => {
  const ref = sessionRefOf(params);
  const { seq, ...filters } = parseQuery(request, positionQuery);
  return json(await locateEvent(await getStore(), ref, filters, seq));
});

const valueSeq = z.string({ error: 'is required' }).pipe(storedIntegerParam(1));
const valueQuery = z.discriminatedUnion('at', [
  z.object({ at: z.literal('event'), seq: valueSeq, pointer }),
  z.object({
    at: z.literal('change'),
    seq: valueSeq,
    change: z.string().pipe(storedIntegerParam(1)),
    side: z.enum(['old', 'new']),
    pointer,
  }),
  z.object({
    at: z.literal('state'),
    tier: z.enum(['app', 'user', 'session']),
    key: z.string().max(1024),
    asOf: storedIntegerParam(1).optional(),
    pointer,
  }),
]);

/** `{"value": ...}`: the whole of a value the session page showed cut (lib/data/value-cut.ts), part of an event, of a change it caused, or of a state value (now or as of an event); 404 when there is none. */
export const getValue = route<SessionParams>(async (request, params) => {
  const ref = sessionRefOf(params);
  const at = parseWith(valueQuery, queryValues(request, ['at', 'seq', 'change', 'side', 'tier', 'key', 'asOf', 'pointer']));
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
