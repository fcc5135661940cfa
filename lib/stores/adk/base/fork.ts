// A fork on a store an ADK writes: a new session of the same user with the
// source's events 1..N and its session tier as it stood right after event N,
// written as that ADK writes a session: its create_session (the session row,
// and whatever tier rows that ADK's create makes) with the session tier as
// the initial state, then each event's row as its append inserts it. The
// shared tiers are not written: the events' app: and user: changes are
// already in them, and the fork reads the same app and user state as its
// source. The fork link and the operation are kept in Statehouse's own
// database (session-log.ts).
import { invalidInput, sessionNotFound } from '../../../session-service/errors';
import { spellingsAt, type ValueSpellings } from '../../../session-service/value-spelling';
import { newId, nowSeconds } from '../../../session-service/events';
import type { Audit, ForkRequest } from '../../../session-service/operations';
import type { SessionRef } from '../../../session-service/store';
import type { Event, SessionSummary, StateRecord } from '../../../session-service/types';
import type { AdkStoreContext } from './context';
import { loadReplay } from './rows';
import { getSessionSummary } from './session-reads';
import { insertSessionRow } from './writes';
import { eventRowsByIds, getStateAsOf, maySpellApart } from './time-travel';
import { unreadableSession } from './unreadable';

/** The numbers' texts of the source: the session tier as of event `atSeq` and each copied event's delta, as the agent's rows spell them. */
interface SourceSpellings {
  session?: ValueSpellings;
  events: (ValueSpellings | undefined)[];
}

async function sourceSpellings(ctx: AdkStoreContext, source: SessionRef, atSeq: number, events: Event[]): Promise<SourceSpellings> {
  const tiers = await getStateAsOf(ctx, source, atSeq);
  const session = new Map(
    (tiers?.session ?? []).flatMap((entry) => (entry.written === undefined ? [] : [[entry.key, entry.written] as const])),
  );
  const spellings: SourceSpellings = { ...(session.size > 0 ? { session } : {}), events: events.map(() => undefined) };
  const spelling = ctx.codec.deltaSpelling?.bind(ctx.codec);
  if (!spelling) return spellings;
  // Only events whose delta holds a value JSON.stringify may spell otherwise are read again.
  const at = new Map(events.flatMap((event, index) => (maySpellApart(event.actions.stateDelta) ? [[event.id, index] as const] : [])));
  for (const row of await eventRowsByIds(ctx, source, [...at.keys()])) {
    const index = at.get(String(row[ctx.codec.layout.events.id]));
    if (index !== undefined) spellings.events[index] = spellingsAt(spelling(row), []);
  }
  return spellings;
}

/** Writes a new session (its session tier as given, then its events) the family's way, in one transaction. */
export async function writeWholeSession(
  ctx: AdkStoreContext,
  ref: SessionRef,
  session: StateRecord,
  events: Event[],
  now: number,
  spellings: SourceSpellings = { events: [] },
): Promise<void> {
  const { createSession, insertEvent } = ctx.sessionWriter('fork');
  const spelled = { spellings: { session: spellings.session }, keys: { session: Object.keys(session) } };
  await ctx.db.write(async (qx) => {
    await insertSessionRow(ctx, qx, createSession, ref, { app: {}, user: {}, session, temp: {} }, now, spelled);
    for (const [index, event] of events.entries()) await insertEvent(qx, ref, event, spellings.events[index]);
  });
}

export async function forkSession(ctx: AdkStoreContext, request: ForkRequest, audit: Audit): Promise<SessionSummary> {
  const { source, atSeq } = request;
  ctx.sessionWriter('fork');
  if (!Number.isInteger(atSeq) || atSeq < 1) throw invalidInput(`atSeq: must be an event number from 1; got ${atSeq}.`);
  const loaded = await loadReplay(ctx, source);
  if (!loaded) throw sessionNotFound(source.sessionId);
  const last = loaded.replay.events.length;
  if (atSeq > last) {
    throw invalidInput(`atSeq: session ${source.sessionId} has ${last} event${last === 1 ? '' : 's'}; there is no event #${atSeq}.`);
  }
  const copied = loaded.replay.events.slice(0, atSeq);
  // An event Statehouse cannot read would be written back as what it understood, not as the agent stored it.
  const broken = copied.find((item) => item.event.unreadable?.length);
  const note = broken?.event.unreadable?.[0];
  if (broken && note) throw unreadableSession(`Event #${broken.seq} of session ${source.sessionId}`, note);
  const ref = { appName: source.appName, userId: source.userId, sessionId: request.sessionId?.trim() || newId() };
  const now = nowSeconds();
  const events = copied.map((item) => item.event);
  await writeWholeSession(
    ctx,
    ref,
    loaded.replay.tiersAfter(atSeq).session,
    events,
    now,
    await sourceSpellings(ctx, source, atSeq, events),
  );
  await ctx.sessionLog?.apply(
    ctx.info.id,
    {
      upsert: [{ ref, meta: { title: null, labels: [], forkedFrom: { sessionId: source.sessionId, atSeq } } }],
      operations: [{ entry: { ...ref, kind: 'fork', detail: { fromSessionId: source.sessionId, atSeq } }, audit }],
    },
    now,
  );
  const summary = await getSessionSummary(ctx, ref);
  if (!summary) throw sessionNotFound(ref.sessionId);
  return summary;
}
