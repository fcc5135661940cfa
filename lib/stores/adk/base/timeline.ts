// A long session's state over time, in bounded pieces. Time travel needs
// the tiers right after event N; replaying all of a 100,000-event session
// in one read took seconds, held the agent's SQLite file (its commit gives
// up after 1 s), blocked the event loop (better-sqlite3 is synchronous) and
// was thrown away at the next append. Here the session's order (timestamp,
// then id: ADK's) is read as keys only, its events in pages of a few
// hundred, each page its own short read with the event loop free between
// pages; every CHECKPOINT_EVERY events the replayed state is kept in a
// CheckpointStore (Statehouse's own database when served, checkpoints.ts),
// under a fingerprint of the events' places and stored sizes up to it, so a restart or
// another console picks up where the last replay ended and a changed
// session replays from the last checkpoint that still holds. In memory are
// only the keys, the head and a few checkpoints read back. An append
// extends the timeline (only the new events are read) rather than
// invalidating it; an event inserted out of order, removed, or rewritten in
// place (adk-js's appendEvent replaces the stored event of an id it appends
// again) starts it again, from the last checkpoint whose fingerprint still
// matches. A rewrite is noticed by the stored size of the event's columns,
// read from the row header with its key: a rewrite to the same number of
// bytes at the same timestamp goes unnoticed.
//
// The kept state is what the events set, replayed from empty tiers: it does
// not depend on later events, so appends never change it. A key no event of
// the session touches is shown as it is now (as replay.ts does).
import { createHash } from 'node:crypto';
import { hasOwn, ownEntries, setOwn } from '../../../session-service/json';
import { prefixedKey, splitDelta, withoutTempKeys } from '../../../session-service/scope';
import type { SessionRef } from '../../../session-service/store';
import type { ChangeSource, Event, JsonValue, Page, Scope, StateChange, StateRecord, StoredEvent } from '../../../session-service/types';
import type { AgentQuery, Param, Row } from '../agent-db';
import type { AdkStoreContext } from './context';
import type { CheckpointKey } from './checkpoints';
import { CHANGE_ID_SPAN, eventSource, type Tiers } from './replay';
import { q } from './sql';

/** Replayed state is kept after every this many events. */
export const CHECKPOINT_EVERY = 500;
/** Events read (and decoded) per page: one short read transaction each. */
const EVENT_PAGE = 100;
/** Keys read per page of a SQLite scan. */
const KEY_PAGE = 2000;
const SCOPES: Scope[] = ['app', 'user', 'session'];

/** Where an event sits in ADK's order: its timestamp as stored and its id; on SQLite also its rowid, to fetch it by. */
interface EventKey {
  ts: Param;
  id: string;
  rowid?: number;
  /** The stored bytes of its other columns: what changes when the event is rewritten in place. */
  size: number;
}

/** The tiers after `seq` events replayed from empty, which keys they touched, and the event that last set each key. */
export interface Checkpoint {
  seq: number;
  overlay: Tiers;
  touched: Record<Scope, Set<string>>;
  sources: Map<string, ChangeSource>;
}

interface Timeline {
  keys: EventKey[];
  /** The sum of the keys' sizes, compared with the stored sum on each refresh. */
  bytes: number;
  /** fingerprints[i]: of the places of the first i * CHECKPOINT_EVERY events (the checkpoint there is kept under it). */
  fingerprints: string[];
  /** The state after every event. */
  head: Checkpoint;
  /** Checkpoints read back lately, by seq (a few: the rest stay in the CheckpointStore). */
  recent: Map<number, Checkpoint>;
}

/** Checkpoints held in memory per timeline beyond its head. */
const RECENT_CHECKPOINTS = 4;

const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

/** SQLite's order of two stored values: numbers before text, text by code unit (ids and timestamps are ASCII). */
function compareStored(a: unknown, b: unknown): number {
  const rank = (v: unknown) => (v === null || v === undefined ? 0 : typeof v === 'number' || typeof v === 'bigint' ? 1 : 2);
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 1) return Number(a) - Number(b);
  const sa = String(a);
  const sb = String(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

const compareKeys = (a: EventKey, b: EventKey) => compareStored(a.ts, b.ts) || compareStored(a.id, b.id);

function emptyCheckpoint(): Checkpoint {
  return {
    seq: 0,
    overlay: { app: {}, user: {}, session: {} },
    touched: { app: new Set(), user: new Set(), session: new Set() },
    sources: new Map(),
  };
}

function copy(record: StateRecord): StateRecord {
  const out: StateRecord = {};
  for (const [key, value] of ownEntries(record)) setOwn(out, key, value);
  return out;
}

/** A stored timestamp as a statement parameter (numbers and text as they came). */
const asParam = (value: unknown): Param =>
  typeof value === 'number' || typeof value === 'string' ? value : value === null ? null : String(value);

/** A copy that later events can change without changing this one (values are shared: replay never mutates a value). */
function copyCheckpoint(from: Checkpoint): Checkpoint {
  return {
    seq: from.seq,
    overlay: { app: copy(from.overlay.app), user: copy(from.overlay.user), session: copy(from.overlay.session) },
    touched: { app: new Set(from.touched.app), user: new Set(from.touched.user), session: new Set(from.touched.session) },
    sources: new Map(from.sources),
  };
}

/** A checkpoint as the text a CheckpointStore keeps. */
function serialize(state: Checkpoint): string {
  return JSON.stringify({
    seq: state.seq,
    overlay: state.overlay,
    touched: { app: [...state.touched.app], user: [...state.touched.user], session: [...state.touched.session] },
    sources: [...state.sources],
  });
}

interface SavedCheckpoint {
  seq: number;
  overlay: Tiers;
  touched: Record<Scope, string[]>;
  sources: [string, ChangeSource][];
}

/** A kept checkpoint read back; null when the text is not one (a row written by something else). */
function deserialize(text: string, seq: number): Checkpoint | null {
  try {
    const saved = JSON.parse(text) as SavedCheckpoint;
    if (saved.seq !== seq) return null;
    return {
      seq,
      overlay: { app: saved.overlay.app, user: saved.overlay.user, session: saved.overlay.session },
      touched: { app: new Set(saved.touched.app), user: new Set(saved.touched.user), session: new Set(saved.touched.session) },
      sources: new Map(saved.sources),
    };
  } catch {
    return null;
  }
}

/** The fingerprints of every whole block of keys, continuing `from` (the chain so far). */
function fingerprintsOf(keys: EventKey[], from: string[]): string[] {
  const out = from.length > 0 ? [...from] : [''];
  for (let block = out.length; block * CHECKPOINT_EVERY <= keys.length; block += 1) {
    const hash = createHash('sha256').update(out[block - 1] ?? '');
    for (const key of keys.slice((block - 1) * CHECKPOINT_EVERY, block * CHECKPOINT_EVERY)) {
      hash.update(JSON.stringify([key.ts, key.id, key.size]));
    }
    out.push(hash.digest('base64url'));
  }
  return out;
}

const checkpointKey = (ctx: AdkStoreContext, ref: SessionRef): CheckpointKey => ({
  storeId: ctx.info.id,
  appName: ref.appName,
  userId: ref.userId,
  sessionId: ref.sessionId,
});

/** Keeps a checkpoint; a failure to (Statehouse's database busy or away) only costs a later replay. */
async function keep(ctx: AdkStoreContext, ref: SessionRef, state: Checkpoint, fingerprint: string | undefined): Promise<void> {
  if (fingerprint === undefined) return;
  await ctx.checkpoints.save(checkpointKey(ctx, ref), state.seq, fingerprint, serialize(state)).catch(() => undefined);
}

/** The kept checkpoint at block `block` of this timeline, when there is one under its fingerprint. */
async function readBack(ctx: AdkStoreContext, ref: SessionRef, fingerprints: string[], block: number): Promise<Checkpoint | null> {
  if (block === 0) return emptyCheckpoint();
  const fingerprint = fingerprints[block];
  if (fingerprint === undefined) return null;
  const seq = block * CHECKPOINT_EVERY;
  const text = await ctx.checkpoints.load(checkpointKey(ctx, ref), seq, fingerprint).catch(() => null);
  return text === null ? null : deserialize(text, seq);
}

/** Applies one event to a checkpoint in place, as replaySession does; with `changes`, adds the event's per-key changes to it. */
function applyEvent(ctx: AdkStoreContext, ref: SessionRef, state: Checkpoint, event: Event, changes?: StateChange[]): void {
  const seq = state.seq + 1;
  const delta = splitDelta(withoutTempKeys(event.actions.stateDelta ?? {}));
  const source = eventSource(ref, event, seq);
  const first = changes?.length ?? 0;
  for (const scope of SCOPES) {
    const keys = Object.keys(delta[scope]);
    if (keys.length === 0) continue;
    const before = changes ? keys.map((key) => (hasOwn(state.overlay[scope], key) ? state.overlay[scope][key] : undefined)) : [];
    // In place: a kept checkpoint is a copy (copyCheckpoint), so no one else sees this tier.
    const after = ctx.codec.applyDelta(state.overlay[scope], delta[scope]);
    state.overlay[scope] = after;
    keys.forEach((key, index) => {
      state.touched[scope].add(key);
      state.sources.set(prefixedKey(scope, key), source);
      changes?.push({
        id: seq * CHANGE_ID_SPAN + (changes.length - first),
        appName: ref.appName,
        scope,
        ownerUserId: scope === 'app' ? '' : ref.userId,
        ownerSessionId: scope === 'session' ? ref.sessionId : '',
        key,
        oldValue: before[index],
        newValue: hasOwn(after, key) ? after[key] : undefined,
        ...source,
      });
    });
  }
  state.seq = seq;
}

function sessionWhere(ctx: AdkStoreContext): string {
  const e = ctx.e;
  return `${e.app} = ? AND ${e.user} = ? AND ${e.session} = ?`;
}

const refParams = (ref: SessionRef) => [ref.appName, ref.userId, ref.sessionId];

/**
 * The stored bytes of an event row's columns other than its key, as the engine knows them without reading the
 * values (SQLite's octet_length and PostgreSQL's pg_column_size take it from the row; MySQL's LENGTH counts bytes).
 */
function sizeSql(ctx: AdkStoreContext): string {
  const layout = ctx.codec.layout.events;
  const columns = layout.columns.filter((column) => column !== layout.id && column !== layout.timestamp).map(q);
  const size = ctx.db.dialect === 'sqlite' ? 'octet_length' : ctx.db.dialect === 'postgresql' ? 'pg_column_size' : 'LENGTH';
  return columns.length === 0 ? '0' : columns.map((column) => `coalesce(${size}(${column}), 0)`).join(' + ');
}

const sizeOf = (raw: unknown): number => Number(raw ?? 0);

/**
 * The keys of the session's events after `after` (its rowid on SQLite, its key on PostgreSQL), in ADK's order.
 * SQLite: a scan in rowid order in pages (no index of any ADK orders a session's events by time), sorted here;
 * PostgreSQL: the server sorts, asynchronously.
 */
async function readKeys(ctx: AdkStoreContext, ref: SessionRef, after: EventKey | null): Promise<EventKey[]> {
  const e = ctx.e;
  const keys: EventKey[] = [];
  if (ctx.db.dialect === 'sqlite') {
    for (let from = after?.rowid ?? 0; ;) {
      const rows = await ctx.db.read((qx) =>
        qx.all(
          `SELECT rowid AS r, ${e.ts} AS ts, ${e.id} AS id, ${sizeSql(ctx)} AS n FROM ${e.t} NOT INDEXED WHERE rowid > ? AND ${sessionWhere(ctx)} ORDER BY rowid LIMIT ?`,
          [from, ...refParams(ref), KEY_PAGE],
        ),
      );
      for (const row of rows) keys.push({ ts: asParam(row.ts), id: String(row.id), rowid: Number(row.r), size: sizeOf(row.n) });
      const last = rows.at(-1);
      if (!last || rows.length < KEY_PAGE) break;
      from = Number(last.r);
      await yieldToOthers();
    }
    // Rows are usually stored in time order already: check in one pass before sorting.
    const unsorted = keys.some((key, i) => {
      const previous = keys[i - 1];
      return previous !== undefined && compareKeys(previous, key) > 0;
    });
    if (unsorted) keys.sort(compareKeys);
    return keys;
  }
  const rows = await ctx.db.read((qx) =>
    after
      ? qx.all(
          `SELECT ${e.ts} AS ts, ${e.id} AS id, ${sizeSql(ctx)} AS n FROM ${e.t} WHERE ${sessionWhere(ctx)} AND (${e.ts} > ? OR (${e.ts} = ? AND ${e.id} > ?)) ORDER BY ${e.ts}, ${e.id}`,
          [...refParams(ref), after.ts, after.ts, after.id],
        )
      : qx.all(
          `SELECT ${e.ts} AS ts, ${e.id} AS id, ${sizeSql(ctx)} AS n FROM ${e.t} WHERE ${sessionWhere(ctx)} ORDER BY ${e.ts}, ${e.id}`,
          refParams(ref),
        ),
  );
  for (const row of rows) keys.push({ ts: asParam(row.ts), id: String(row.id), size: sizeOf(row.n) });
  return keys;
}

/** The events with these keys (consecutive in ADK's order), decoded, in that order; one short read. */
async function readEvents(
  ctx: AdkStoreContext,
  qx: AgentQuery,
  ref: SessionRef,
  keys: EventKey[],
  before: EventKey | null,
): Promise<Event[]> {
  if (ctx.db.dialect === 'sqlite') return readEventsAt(ctx, qx, ref, keys);
  const e = ctx.e;
  const where = before ? ` AND (${e.ts} > ? OR (${e.ts} = ? AND ${e.id} > ?))` : '';
  const params = before ? [before.ts, before.ts, before.id] : [];
  const rows = await qx.all(`SELECT ${e.cols} FROM ${e.t} WHERE ${sessionWhere(ctx)}${where} ORDER BY ${e.ts}, ${e.id} LIMIT ?`, [
    ...refParams(ref),
    ...params,
    keys.length,
  ]);
  // Rows removed since their keys were read: the caller starts again.
  if (rows.length !== keys.length) throw new TimelineMoved();
  return rows.map((row) => ctx.rows.event(row));
}

/** The events with these keys (anywhere in the session), decoded, in the keys' order; one short read. */
async function readEventsAt(ctx: AdkStoreContext, qx: AgentQuery, ref: SessionRef, keys: EventKey[]): Promise<Event[]> {
  const e = ctx.e;
  const marks = keys.map(() => '?').join(', ');
  const found = new Map<string, Row>();
  if (ctx.db.dialect === 'sqlite') {
    const rows = await qx.all(
      `SELECT rowid AS _r, ${e.cols} FROM ${e.t} WHERE rowid IN (${marks})`,
      keys.map((k) => k.rowid ?? -1),
    );
    for (const row of rows) found.set(String(row._r), row);
  } else {
    // An event's id is unique within its session in every ADK's primary key.
    const rows = await qx.all(`SELECT ${e.id} AS _k, ${e.cols} FROM ${e.t} WHERE ${sessionWhere(ctx)} AND ${e.id} IN (${marks})`, [
      ...refParams(ref),
      ...keys.map((k) => k.id),
    ]);
    for (const row of rows) found.set(String(row._k), row);
  }
  const rows = keys.map((key) => found.get(ctx.db.dialect === 'sqlite' ? String(key.rowid ?? -1) : key.id));
  // Rows removed since their keys were read: the caller starts again.
  if (rows.some((row) => row === undefined)) throw new TimelineMoved();
  return rows.map((row) => ctx.rows.event(row as Row));
}

class TimelineMoved extends Error {
  constructor() {
    super('The session’s events changed while its timeline was read.');
  }
}

/** What a replay does besides advancing the state: keep each checkpoint passed (with the timeline's fingerprints), hand each event on. */
interface ReplayOptions {
  fingerprints?: string[];
  /** Each event replayed, with its per-key changes. */
  onEvent?: (seq: number, event: Event, changes: StateChange[]) => void;
}

/** Replays events from..to (seq numbers, exclusive..inclusive) onto `state` in pages. */
async function replayRange(
  ctx: AdkStoreContext,
  ref: SessionRef,
  keys: EventKey[],
  state: Checkpoint,
  to: number,
  options: ReplayOptions = {},
): Promise<void> {
  const { fingerprints, onEvent } = options;
  while (state.seq < to) {
    const page = keys.slice(state.seq, Math.min(to, state.seq + EVENT_PAGE));
    const before = keys[state.seq - 1] ?? null;
    const events = await ctx.db.read((qx) => readEvents(ctx, qx, ref, page, before));
    for (const event of events) {
      const changes: StateChange[] | undefined = onEvent ? [] : undefined;
      applyEvent(ctx, ref, state, event, changes);
      onEvent?.(state.seq, event, changes ?? []);
      if (fingerprints && state.seq % CHECKPOINT_EVERY === 0) await keep(ctx, ref, state, fingerprints[state.seq / CHECKPOINT_EVERY]);
    }
    await yieldToOthers();
  }
}

/** The timeline from its keys: replayed from the last checkpoint kept under the same fingerprint, keeping the ones after it. */
async function build(ctx: AdkStoreContext, ref: SessionRef): Promise<Timeline> {
  const keys = await readKeys(ctx, ref, null);
  const fingerprints = fingerprintsOf(keys, []);
  const key = checkpointKey(ctx, ref);
  const kept = await ctx.checkpoints.fingerprints(key).catch(() => new Map<number, string>());
  let head: Checkpoint | null = null;
  for (let block = fingerprints.length - 1; block > 0 && head === null; block -= 1) {
    if (kept.get(block * CHECKPOINT_EVERY) === fingerprints[block]) head = await readBack(ctx, ref, fingerprints, block);
  }
  head ??= emptyCheckpoint();
  if ([...kept.keys()].some((seq) => seq > keys.length)) await ctx.checkpoints.dropAfter(key, keys.length).catch(() => undefined);
  const recent = new Map<number, Checkpoint>();
  await replayRange(ctx, ref, keys, head, keys.length, { fingerprints });
  return { keys, bytes: bytesOf(keys), fingerprints, head, recent };
}

/** How many events the session has and their stored bytes: what an append adds to, and a removal or rewrite changes. */
async function eventTotals(ctx: AdkStoreContext, ref: SessionRef): Promise<{ count: number; bytes: number }> {
  const rows = await ctx.db.read((qx) =>
    qx.all(`SELECT count(*) AS n, sum(${sizeSql(ctx)}) AS b FROM ${ctx.e.t} WHERE ${sessionWhere(ctx)}`, refParams(ref)),
  );
  return { count: Number(rows[0]?.n ?? 0), bytes: sizeOf(rows[0]?.b) };
}

const bytesOf = (keys: EventKey[]) => keys.reduce((sum, key) => sum + key.size, 0);

/** The timeline brought up to date: new events at the end extend it; anything else builds it again. */
async function refresh(ctx: AdkStoreContext, ref: SessionRef, timeline: Timeline | undefined): Promise<Timeline> {
  if (!timeline) return build(ctx, ref);
  const last = timeline.keys.at(-1) ?? null;
  const added = await readKeys(ctx, ref, last);
  const first = added[0];
  const inOrder = !first || !last || compareKeys(last, first) < 0;
  const bytes = timeline.bytes + bytesOf(added);
  const totals = await eventTotals(ctx, ref);
  if (!inOrder || totals.count !== timeline.keys.length + added.length || totals.bytes !== bytes) return build(ctx, ref);
  if (added.length === 0) return timeline;
  const keys = [...timeline.keys, ...added];
  const fingerprints = fingerprintsOf(keys, timeline.fingerprints);
  const head = copyCheckpoint(timeline.head);
  await replayRange(ctx, ref, keys, head, keys.length, { fingerprints });
  return { keys, bytes, fingerprints, head, recent: timeline.recent };
}

/** The checkpoint at or before `seq` to replay from: one read back lately, one kept, or (none kept) the start. */
async function checkpointBefore(ctx: AdkStoreContext, ref: SessionRef, timeline: Timeline, seq: number): Promise<Checkpoint> {
  for (let block = Math.floor(seq / CHECKPOINT_EVERY); block >= 0; block -= 1) {
    const at = block * CHECKPOINT_EVERY;
    const recent = timeline.recent.get(at);
    if (recent) {
      timeline.recent.delete(at);
      timeline.recent.set(at, recent);
      return recent;
    }
    const kept = await readBack(ctx, ref, timeline.fingerprints, block);
    if (kept) {
      timeline.recent.set(at, kept);
      if (timeline.recent.size > RECENT_CHECKPOINTS) timeline.recent.delete(timeline.recent.keys().next().value as number);
      return kept;
    }
  }
  return emptyCheckpoint();
}

const TIMELINE_CACHE_SIZE = 16;

/** Which of a filtered list's matches to return (Timelines.filtered). */
export interface FilterWindow {
  /** Only events after this seq. */
  after: number;
  /** When given, only events with these ids can match (a narrowing the database did). */
  narrow?: Set<string>;
  offset: number;
  limit: number;
  newestFirst: boolean;
}

const keysAt = (timeline: Timeline, seqs: number[]): EventKey[] =>
  seqs.map((seq) => timeline.keys[seq - 1]).filter((key): key is EventKey => key !== undefined);

/** Timelines by session, most recently used last; one refresh at a time per session, shared by its callers. */
export class Timelines {
  private readonly cache = new Map<string, Timeline>();
  private readonly pending = new Map<string, Promise<Timeline>>();

  /** The state right after event `seq` (0: before the first); null when the session has fewer events. */
  async stateAfter(ctx: AdkStoreContext, ref: SessionRef, seq: number): Promise<{ state: Checkpoint; head: Checkpoint } | null> {
    return this.withTimeline(ctx, ref, async (timeline) => {
      if (seq > timeline.keys.length) return null;
      if (seq === timeline.head.seq) return { state: timeline.head, head: timeline.head };
      const state = copyCheckpoint(await checkpointBefore(ctx, ref, timeline, seq));
      await replayRange(ctx, ref, timeline.keys, state, seq);
      return { state, head: timeline.head };
    });
  }

  /** How many events the session has, and the state after all of them (which event last set each key). */
  head(ctx: AdkStoreContext, ref: SessionRef): Promise<Checkpoint> {
    return this.withTimeline(ctx, ref, async (timeline) => timeline.head);
  }

  /** The events with seq in (from, to], in ADK's order, read in pages by their keys. */
  events(ctx: AdkStoreContext, ref: SessionRef, from: number, to: number): Promise<{ seq: number; event: Event }[]> {
    return this.withTimeline(ctx, ref, async (timeline) => {
      const out: { seq: number; event: Event }[] = [];
      const last = Math.min(to, timeline.keys.length);
      for (let seq = Math.max(0, from); seq < last; seq += EVENT_PAGE) {
        const page = timeline.keys.slice(seq, Math.min(last, seq + EVENT_PAGE));
        const events = await ctx.db.read((qx) => readEvents(ctx, qx, ref, page, timeline.keys[seq - 1] ?? null));
        events.forEach((event, index) => out.push({ seq: seq + index + 1, event }));
        if (seq + EVENT_PAGE < last) await yieldToOthers();
      }
      return out;
    });
  }

  /** The per-key changes of the events with these seqs, each replayed from the checkpoint before it. */
  async changes(ctx: AdkStoreContext, ref: SessionRef, seqs: number[]): Promise<StateChange[]> {
    const out: StateChange[] = [];
    await this.visit(ctx, ref, seqs, (_seq, _event, changes) => out.push(...changes));
    return out;
  }

  /**
   * Each event with one of these seqs (all of them when `seqs` is 'all'), in order, with its per-key changes:
   * replayed in pages from the checkpoint before it, so that only a page of events is held at a time.
   */
  visit(ctx: AdkStoreContext, ref: SessionRef, seqs: number[] | 'all', onEvent: ReplayOptions['onEvent']): Promise<void> {
    return this.withTimeline(ctx, ref, async (timeline) => {
      const all = seqs === 'all' ? Array.from({ length: timeline.keys.length }, (_, i) => i + 1) : seqs;
      const wanted = [...new Set(all)].filter((seq) => seq >= 1 && seq <= timeline.keys.length).sort((a, b) => a - b);
      const found = new Set(wanted);
      const visited = (at: number, event: Event, changes: StateChange[]) => {
        if (found.has(at)) onEvent?.(at, event, changes);
      };
      let state: Checkpoint | null = null;
      for (let i = 0; i < wanted.length;) {
        const seq = wanted[i] ?? 0;
        if (state === null || state.seq >= seq || seq - state.seq > CHECKPOINT_EVERY) {
          state = copyCheckpoint(await checkpointBefore(ctx, ref, timeline, seq - 1));
        }
        // A run of asked events close to each other is replayed in one pass.
        let j = i;
        while (j + 1 < wanted.length && (wanted[j + 1] ?? 0) - (wanted[j] ?? 0) <= CHECKPOINT_EVERY) j += 1;
        await replayRange(ctx, ref, timeline.keys, state, wanted[j] ?? seq, { onEvent: visited });
        i = j + 1;
      }
    });
  }

  /**
   * The events after `after` that `keep` accepts (only among those whose ids `narrow` holds, when given): how many,
   * and those at [offset, offset + limit) of them, counted from the newest when `newestFirst`. Candidates are read
   * in pages and only the matches' seqs are kept; the window's events are read again at the end.
   */
  filtered(ctx: AdkStoreContext, ref: SessionRef, keep: (event: Event) => boolean, window: FilterWindow): Promise<Page<StoredEvent>> {
    return this.withTimeline(ctx, ref, async (timeline) => {
      const { narrow } = window;
      const candidates: number[] = [];
      timeline.keys.forEach((key, index) => {
        if (index >= window.after && (!narrow || narrow.has(key.id))) candidates.push(index + 1);
      });
      const matches: number[] = [];
      for (let i = 0; i < candidates.length; i += EVENT_PAGE) {
        const seqs = candidates.slice(i, i + EVENT_PAGE);
        const events = await ctx.db.read((qx) => readEventsAt(ctx, qx, ref, keysAt(timeline, seqs)));
        events.forEach((event, index) => {
          if (keep(event)) matches.push(seqs[index] ?? 0);
        });
        await yieldToOthers();
      }
      if (window.newestFirst) matches.reverse();
      const shown = matches.slice(window.offset, window.offset + window.limit);
      const items: StoredEvent[] = [];
      for (let i = 0; i < shown.length; i += EVENT_PAGE) {
        const seqs = shown.slice(i, i + EVENT_PAGE);
        const events = await ctx.db.read((qx) => readEventsAt(ctx, qx, ref, keysAt(timeline, seqs)));
        events.forEach((event, index) => items.push({ seq: seqs[index] ?? 0, event }));
      }
      return { items, total: matches.length };
    });
  }

  /**
   * The changes of the keys `wanted` accepts, in order, each with the value its event's delta gave the key;
   * only the events whose ids `narrow` holds (all, in pages, when null) are read, plus the replay up to the
   * first of them from the checkpoint before it. A key's merge never depends on another key, so each is walked alone.
   */
  keyChanges(
    ctx: AdkStoreContext,
    ref: SessionRef,
    wanted: (scope: Scope, key: string) => boolean,
    narrow: Set<string> | null,
  ): Promise<{ change: StateChange; delta: JsonValue }[]> {
    return this.withTimeline(ctx, ref, async (timeline) => {
      const seqs: number[] = [];
      timeline.keys.forEach((key, index) => {
        if (!narrow || narrow.has(key.id)) seqs.push(index + 1);
      });
      const first = seqs[0];
      if (first === undefined) return [];
      const before = copyCheckpoint(await checkpointBefore(ctx, ref, timeline, first - 1));
      await replayRange(ctx, ref, timeline.keys, before, first - 1);
      const out: { change: StateChange; delta: JsonValue }[] = [];
      for (let i = 0; i < seqs.length; i += EVENT_PAGE) {
        const page = seqs.slice(i, i + EVENT_PAGE);
        const events = await ctx.db.read((qx) => readEventsAt(ctx, qx, ref, keysAt(timeline, page)));
        events.forEach((event, index) => {
          const seq = page[index] ?? 0;
          const delta = splitDelta(withoutTempKeys(event.actions.stateDelta ?? {}));
          let position = 0;
          for (const scope of SCOPES) {
            for (const [key, value] of ownEntries(delta[scope])) {
              const id = seq * CHANGE_ID_SPAN + position;
              position += 1;
              if (!wanted(scope, key)) continue;
              const tier = before.overlay[scope];
              const oldValue = hasOwn(tier, key) ? tier[key] : undefined;
              const alone: StateRecord = {};
              if (oldValue !== undefined) setOwn(alone, key, oldValue);
              const change: StateRecord = {};
              setOwn(change, key, value);
              const after = ctx.codec.applyDelta(alone, change);
              const newValue = hasOwn(after, key) ? after[key] : undefined;
              if (newValue === undefined) delete tier[key];
              else setOwn(tier, key, newValue);
              out.push({
                change: {
                  id,
                  appName: ref.appName,
                  scope,
                  ownerUserId: scope === 'app' ? '' : ref.userId,
                  ownerSessionId: scope === 'session' ? ref.sessionId : '',
                  key,
                  oldValue,
                  newValue,
                  ...eventSource(ref, event, seq),
                },
                delta: value,
              });
            }
          }
        });
        await yieldToOthers();
      }
      return out;
    });
  }

  /** Runs `read` on the session's timeline brought up to date, again (from its keys) if the events changed meanwhile. */
  private async withTimeline<T>(ctx: AdkStoreContext, ref: SessionRef, read: (timeline: Timeline) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await read(await this.current(ctx, ref));
      } catch (error) {
        if (!(error instanceof TimelineMoved) || attempt >= 2) throw error;
        this.cache.delete(JSON.stringify([ref.appName, ref.userId, ref.sessionId]));
      }
    }
  }

  private current(ctx: AdkStoreContext, ref: SessionRef): Promise<Timeline> {
    const key = JSON.stringify([ref.appName, ref.userId, ref.sessionId]);
    const running = this.pending.get(key);
    if (running) return running;
    const next = refresh(ctx, ref, this.cache.get(key)).then(
      (timeline) => {
        this.cache.delete(key);
        this.cache.set(key, timeline);
        if (this.cache.size > TIMELINE_CACHE_SIZE) this.cache.delete(this.cache.keys().next().value as string);
        return timeline;
      },
      (error: unknown) => {
        this.cache.delete(key);
        throw error;
      },
    );
    const shared = next.finally(() => this.pending.delete(key));
    this.pending.set(key, shared);
    return shared;
  }
}

/** The tiers as of a checkpoint: what events set, over the current values of keys no event of the session touches. */
export function tiersAt(state: Checkpoint, current: Tiers, touchedByAll: Checkpoint['touched']): Tiers {
  const compose = (scope: Scope): StateRecord => {
    const out: StateRecord = {};
    for (const [key, value] of ownEntries(current[scope])) if (!touchedByAll[scope].has(key)) setOwn(out, key, value);
    for (const [key, value] of ownEntries(state.overlay[scope])) setOwn(out, key, value);
    return out;
  };
  return { app: compose('app'), user: compose('user'), session: compose('session') };
}

/** Each store's timelines, kept as long as its context (they read through the context, so they are not a field of it). */
const timelines = new WeakMap<AdkStoreContext, Timelines>();

export function timelinesOf(ctx: AdkStoreContext): Timelines {
  let kept = timelines.get(ctx);
  if (!kept) timelines.set(ctx, (kept = new Timelines()));
  return kept;
}
