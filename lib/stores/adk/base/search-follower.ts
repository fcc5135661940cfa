// Keeps the search index of an agent's store (search-index.ts) in
// Statehouse's own database. Off the request path, in small steps that yield
// between them, each step cut into slices of a few milliseconds with a turn
// of the event loop between (search-walk.ts), so no request waits on it:
// - the fill reads the agent's sessions in rowid order on SQLite (some
//   families' keys have no index in key order, and each batch would sort the
//   table), in key order elsewhere, a batch sized to take about `stepMs`, and
//   records how far it got, so a restart resumes it;
// - every `pollMs` it follows what changed: the sessions whose update time is
//   at or after the watermark (less a margin, for appends committed after a
//   later one), indexed again when their marker (update time and a hash of
//   the state) differs; this is how the console's lists see an agent's
//   writes too (the newest update times);
// - and compares the session counts: when the index holds more sessions than
//   the agent's database, the ones no longer there are removed.
// On SQLite nothing is read while the file's change signal stands still, and
// a follow walks the sessions a chunk per short read (their keys and update
// times), instead of one statement over the whole table; it also reads the
// events table after the last rowid it read, kept with the progress so a
// restart reads on from there.
// Servers sharing Statehouse's database each run a follower of the store; the
// one holding the lease does this work, the others read how far it is, and
// take over once it stops renewing the lease.
import { createHash, randomUUID } from 'node:crypto';
import { scopeOfKey } from '../../../session-service/scope';
import { eventSearchText } from '../../../session-service/search';
import { LeaseLostError, type LeaseHolder } from '../../leases';
import type { Param, Row } from '../agent-db';
import type { AdkStoreContext } from './context';
import {
  keyText,
  type FollowOptions,
  type IndexedMark,
  type IndexedSession,
  type IndexProgress,
  type IndexStatus,
  type SearchIndex,
  type SessionEvents,
  type SessionKey,
} from './search-index';
import {
  FIRST_ROWID,
  hasRowids,
  keyOf,
  lastEventRowid,
  sessionKeys,
  sessionsWithNewEvents,
  Slices,
  walkSessions,
  type Walked,
} from './search-walk';

export const DEFAULT_POLL_MS = 2_000;
export const DEFAULT_STEP_MS = 20;
export const DEFAULT_LEASE_MS = 15_000;
/** An append's update time is the event's, taken before its commit: sessions this much older than the newest seen are read again. */
export const FOLLOW_MARGIN_SECONDS = 60;
/** Changed sessions read per query of a follow. */
const FOLLOW_BATCH = 500;
/** Keys read per step when looking for deleted sessions. */
const KEY_BATCH = 5_000;
/** A value is searched on its first 4,096 characters, as on the native store. */
const BODY_LIMIT = 4_096;
/** Events read per query when indexing a session's events. */
const EVENT_PAGE = 500;
/** Docs per write to the index during the fill: its text index's inserts are the fill's dearest work. */
const WRITE_DOCS = 60;
/** Sessions read back by key per statement. */
const KEYS_PER_READ = 100;
/** What the docs hold; an index written by another version is filled anew (2: events' text). */
const INDEX_FORMAT = 2;
const MIN_BATCH = 20;
const MAX_BATCH = 2_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class SearchFollower {
  private progress: IndexProgress | null = null;
  private indexed = 0;
  private total = 0;
  private batch = 100;
  private lastPoll = -Infinity;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<unknown> = Promise.resolve();
  private stopped = false;
  private failures = 0;
  private leading = false;
  /** Taken over from another server: its progress is read again before this one writes (until then, what was observed stands). */
  private tookOver = false;
  private renewedAt = -Infinity;
  private readonly pollMs: number;
  private readonly stepMs: number;
  private readonly lease: LeaseHolder;
  private readonly slices = new Slices();
  /** The agent database's change signal as of the last follow (and count) that completed. */
  private followedSignal: string | undefined;
  private observedSignal: string | undefined;
  /** Whether the agent's tables are walked by rowid: SQLite tables have one unless made WITHOUT ROWID. */
  private walkable: boolean | undefined;

  constructor(
    private readonly ctx: AdkStoreContext,
    private readonly index: SearchIndex,
    private readonly options: FollowOptions = {},
  ) {
    this.pollMs = options.pollMs ?? DEFAULT_POLL_MS;
    this.stepMs = options.stepMs ?? DEFAULT_STEP_MS;
    this.lease = { holder: randomUUID(), ms: options.leaseMs ?? DEFAULT_LEASE_MS };
  }

  private get storeId(): string {
    return this.ctx.info.id;
  }

  start(): void {
    if (this.options.background !== false) this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running.catch(() => undefined);
    if (this.leading) {
      this.leading = false;
      // Left to expire when Statehouse's database cannot be reached.
      await this.index.release(this.storeId, this.lease.holder).catch(() => undefined);
    }
  }

  /**
   * Whether this follower holds the lease on following the store (another
   * server's follower may): claimed or renewed less than the lease's length
   * ago, timed from before the request, so never later than the database's
   * expiry.
   */
  isLeading(): boolean {
    return this.leading && performance.now() - this.renewedAt < this.lease.ms;
  }

  status(): IndexStatus | null {
    if (!this.progress) return null;
    return { filled: this.progress.filled, cursor: this.progress.cursor, indexed: this.indexed, total: this.total };
  }

  /**
   * Works until the fill is done and a follow finds nothing new, or for at
   * most `steps` fill steps (tests and the bench run the follower this way).
   */
  async settle(options: { steps?: number } = {}): Promise<void> {
    await this.running.catch(() => undefined);
    let steps = options.steps ?? Infinity;
    for (;;) {
      if (!(await this.lead())) return this.observe();
      await this.open();
      if (steps <= 0) return;
      if (!this.progress?.filled) {
        await this.fill();
        steps -= 1;
        continue;
      }
      if ((await this.poll()) === 0) return;
    }
  }

  private schedule(delay: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      const step = this.step().then(
        (pause) => {
          this.failures = 0;
          return pause;
        },
        (error: unknown) => {
          if (error instanceof LeaseLostError) return this.pollMs;
          // The agent's database or Statehouse's may be down for a while: try again later, say so once.
          if (this.failures === 0)
            console.warn(`Search index of ${this.storeId}: ${error instanceof Error ? error.message : String(error)}`);
          this.failures += 1;
          return Math.min(60_000, this.pollMs * 2 ** Math.min(this.failures, 5));
        },
      );
      this.running = step;
      void step.then((pause) => this.schedule(pause));
    }, delay);
    this.timer.unref?.();
  }

  /** One step of work; answers how long to rest before the next: at least as long as it worked while filling. */
  private async step(): Promise<number> {
    if (!(await this.lead())) {
      await this.observe();
      return this.pollMs;
    }
    await this.open();
    const started = performance.now();
    if (performance.now() - this.lastPoll >= this.pollMs) {
      this.lastPoll = performance.now();
      await this.poll();
    } else if (!this.progress?.filled) {
      await this.fill();
    }
    return this.progress?.filled ? this.pollMs : this.rest(started);
  }

  /** Whether this follower holds the lease: claimed, or renewed once a third of it has passed. */
  private async lead(): Promise<boolean> {
    if (this.leading && performance.now() - this.renewedAt < this.lease.ms / 3) return true;
    const asked = performance.now();
    const leading = await this.index.claim(this.storeId, this.lease);
    // Taking over: the server that held the lease has moved the index on; start from where it left it. Until that is
    // read, find goes on answering from the index as last observed, not from a scan of the agent's store.
    if (leading && !this.leading) this.tookOver = true;
    this.leading = leading;
    if (leading) this.renewedAt = asked;
    return leading;
  }

  /** While another server follows the store: how far its index is, for find. */
  private async observe(): Promise<void> {
    const kept = await this.index.progress(this.storeId);
    this.progress = kept && kept.source === this.source() ? kept : null;
    this.indexed = await this.index.count(this.storeId);
    const signal = await this.ctx.db.changeSignal?.();
    if (signal === undefined || signal !== this.observedSignal) this.total = await this.agentCount();
    this.observedSignal = signal;
  }

  /** A write to the index, which renews the lease, or fails without writing when another server has taken it over. */
  private async fenced(write: () => Promise<void>): Promise<void> {
    const asked = performance.now();
    try {
      await write();
      this.renewedAt = asked;
    } catch (error) {
      // The progress stays: it is what the index holds, for find, until the next step observes the new holder's.
      if (error instanceof LeaseLostError) this.leading = false;
      throw error;
    }
  }

  private write(change: Parameters<SearchIndex['write']>[1]): Promise<void> {
    return this.fenced(() => this.index.write(this.storeId, change, this.lease));
  }

  /**
   * Sessions written a few hundred docs at a time, a turn of the event loop
   * between, the progress with the last part (a part written again after a
   * restart replaces its own docs).
   */
  private async writeInParts(sessions: IndexedSession[], progress?: IndexProgress): Promise<void> {
    let part: IndexedSession[] = [];
    let docs = 0;
    for (const session of sessions) {
      part.push(session);
      docs += 1 + session.values.length + session.events.docs.length;
      if (docs < WRITE_DOCS) continue;
      await this.write({ upsert: part });
      await this.slices.yield();
      part = [];
      docs = 0;
    }
    await this.write({ upsert: part, ...(progress ? { progress } : {}) });
    await this.slices.yield();
  }

  private rest(started: number): number {
    return Math.max(5, Math.round(performance.now() - started));
  }

  private source(): string {
    return `v${INDEX_FORMAT} ${this.ctx.info.family} ${this.ctx.info.location}`;
  }

  private async open(): Promise<void> {
    if (this.progress && !this.tookOver) return;
    const kept = await this.index.progress(this.storeId);
    this.walkable ??= this.ctx.db.dialect === 'sqlite' && (await hasRowids(this.ctx));
    const lastEvent = this.walks() ? await lastEventRowid(this.ctx) : null;
    const walked = this.walks() ? await walkSessions(this.ctx, Infinity, this.slices) : null;
    if (kept && kept.source === this.source()) {
      // Events the agent added while no server followed are read from where the index left off; from the
      // table's end when that is behind it (its last events deleted, their rowids to be given again).
      const eventsAfter = lastEvent === null ? null : Math.min(kept.eventsAfter ?? lastEvent, lastEvent);
      // A fill begun in the other order starts again from the first session (the docs it wrote are replaced).
      const cursor = kept.cursor !== null && (typeof kept.cursor === 'number') !== this.walks() ? null : kept.cursor;
      this.progress = { ...kept, cursor, eventsAfter };
    } else {
      const newest = walked ? walked.newest : await this.newestUpdate();
      const fresh: IndexProgress = { source: this.source(), cursor: null, filled: false, watermark: newest, eventsAfter: lastEvent };
      await this.fenced(() => this.index.reset(this.storeId, fresh, this.lease));
      this.progress = fresh;
    }
    this.tookOver = false;
    this.indexed = await this.index.count(this.storeId);
    this.total = walked ? walked.count : await this.agentCount();
  }

  /** SQLite: walked a chunk at a time, with a change signal (its queries over the whole table would hold the event loop). */
  private walks(): boolean {
    return this.walkable === true;
  }

  private async newestUpdate(): Promise<number> {
    const { s } = this.ctx;
    const rows = await this.ctx.db.read((qx) => qx.all(`SELECT max(${s.update}) AS u FROM ${s.t}`));
    return this.ctx.seconds(rows[0]?.u, 'sessionUpdate');
  }

  private async agentCount(): Promise<number> {
    const { s } = this.ctx;
    const rows = await this.ctx.db.read((qx) => qx.all(`SELECT count(*) AS n FROM ${s.t}`));
    return Number(rows[0]?.n ?? 0);
  }

  private columns(): string {
    const { s } = this.ctx;
    return `${s.app} AS app, ${s.user} AS user_id, ${s.id} AS id, ${s.state} AS state, ${s.update} AS u`;
  }

  /** The next batch of sessions in the fill's order (rowid or key), indexed, and the cursor moved past them. */
  private async fill(): Promise<void> {
    const progress = this.progress as IndexProgress;
    const { s } = this.ctx;
    const after = progress.cursor;
    const started = performance.now();
    const rows = await this.ctx.db.read((qx) =>
      this.walks()
        ? qx.all(`SELECT rowid AS r, ${this.columns()} FROM ${s.t} WHERE rowid > ? ORDER BY rowid LIMIT ?`, [
            typeof after === 'number' ? after : FIRST_ROWID,
            this.batch,
          ])
        : qx.all(
            `SELECT ${this.columns()} FROM ${s.t} WHERE ${Array.isArray(after) ? `(${s.app}, ${s.user}, ${s.id}) > (?, ?, ?)` : '1 = 1'}
             ORDER BY ${s.app}, ${s.user}, ${s.id} LIMIT ?`,
            [...(Array.isArray(after) ? after : []), this.batch],
          ),
    );
    const sessions: IndexedSession[] = [];
    for (const row of rows) {
      await this.slices.next();
      sessions.push(await this.withEvents(this.indexedOf(row), 0));
    }
    const last = sessions[sessions.length - 1];
    const lastRow = rows[rows.length - 1];
    const cursor = this.walks() ? Number(lastRow?.r) : (last?.key ?? null);
    const next: IndexProgress = rows.length < this.batch || !last ? { ...progress, cursor: null, filled: true } : { ...progress, cursor };
    await this.writeInParts(sessions, next);
    this.progress = next;
    this.indexed += sessions.length;
    if (next.filled) this.indexed = await this.index.count(this.storeId);
    const perSession = (performance.now() - started) / Math.max(1, rows.length);
    this.batch = Math.max(MIN_BATCH, Math.min(MAX_BATCH, Math.round(this.stepMs / Math.max(perSession, 0.001))));
  }

  /** Follows what changed and removes what the agent deleted; answers how many sessions were indexed or removed. */
  private async poll(): Promise<number> {
    if (this.walks()) return this.followByWalk();
    return (await this.follow()) + (await this.sweep());
  }

  /**
   * SQLite, once the file's change signal has moved: one walk over the
   * sessions, counted and tested in the database a chunk at a time; those
   * updated since the watermark (less the margin) read whole and indexed
   * again where their marker moved; when fewer than the index holds, the
   * ones no longer there removed.
   */
  private async followByWalk(): Promise<number> {
    const signal = await this.ctx.db.changeSignal?.();
    if (signal !== undefined && signal === this.followedSignal) return 0;
    const start = this.progress as IndexProgress;
    const walked: Walked = await walkSessions(this.ctx, Math.max(0, start.watermark - FOLLOW_MARGIN_SECONDS), this.slices);
    const tail = await sessionsWithNewEvents(this.ctx, start.eventsAfter ?? 0, this.slices);
    const withNewEvents = new Set(tail.sessions.map(keyText));
    const keys = [...walked.recent.filter((key) => !withNewEvents.has(keyText(key))), ...tail.sessions];
    let indexed = 0;
    for (let at = 0; at < keys.length; at += FOLLOW_BATCH) indexed += await this.reindex(keys.slice(at, at + FOLLOW_BATCH), withNewEvents);
    const progress = this.progress as IndexProgress;
    if (walked.newest > progress.watermark || tail.last !== progress.eventsAfter) {
      const next = { ...progress, watermark: Math.max(progress.watermark, walked.newest), eventsAfter: tail.last };
      await this.write({ progress: next });
      this.progress = next;
    }
    this.total = walked.count;
    const removed =
      this.progress?.filled && this.indexed > walked.count ? await this.removeAbsent(await sessionKeys(this.ctx, this.slices)) : 0;
    this.followedSignal = signal;
    return indexed + removed;
  }

  /** These sessions read whole, and indexed again where their marker moved or they have new events; answers how many were. */
  private async reindex(keys: SessionKey[], withNewEvents: Set<string>): Promise<number> {
    const { s } = this.ctx;
    const read: Omit<IndexedSession, 'events'>[] = [];
    for (let at = 0; at < keys.length; at += KEYS_PER_READ) {
      const part = keys.slice(at, at + KEYS_PER_READ);
      const rows = await this.ctx.db.read((qx) =>
        qx.all(
          `SELECT ${this.columns()} FROM ${s.t} WHERE ${part.map(() => `(${s.app} = ? AND ${s.user} = ? AND ${s.id} = ?)`).join(' OR ')}`,
          part.flat(),
        ),
      );
      read.push(...rows.map((row) => this.indexedOf(row)));
      await this.slices.next();
    }
    const { known, changed } = await this.changedOf(read, withNewEvents);
    if (changed.length > 0) await this.writeInParts(changed);
    this.indexed += changed.filter((session) => !known.has(keyText(session.key))).length;
    return changed.length;
  }

  /** Of these sessions read, the ones whose marker moved or that have new events, with their events read; and what the index held of them. */
  private async changedOf(
    read: Omit<IndexedSession, 'events'>[],
    withNewEvents: ReadonlySet<string> = new Set(),
  ): Promise<{ known: Map<string, IndexedMark>; changed: IndexedSession[] }> {
    const known = await this.index.markers(
      this.storeId,
      read.map((session) => session.key),
    );
    const changed: IndexedSession[] = [];
    for (const session of read) {
      const mark = known.get(keyText(session.key));
      if (mark?.marker === session.marker && !withNewEvents.has(keyText(session.key))) continue;
      await this.slices.next();
      changed.push(await this.withEvents(session, mark?.events ?? 0));
    }
    return { known, changed };
  }

  /**
   * Sessions changed since the watermark, indexed again where their marker
   * moved, a page at a time (more than a page may share the margin's window:
   * an import writes many at once); answers how many were indexed.
   */
  private async follow(): Promise<number> {
    const { s } = this.ctx;
    const start = this.progress as IndexProgress;
    const since = this.ctx.codec.time.encode(Math.max(0, start.watermark - FOLLOW_MARGIN_SECONDS), 'sessionUpdate');
    let indexed = 0;
    for (let offset = 0; ; offset += FOLLOW_BATCH) {
      const rows = await this.ctx.db.read((qx) =>
        qx.all(
          `SELECT ${this.columns()} FROM ${s.t} WHERE ${s.update} >= ? ORDER BY ${s.update}, ${s.app}, ${s.user}, ${s.id} LIMIT ? OFFSET ?`,
          [since, FOLLOW_BATCH, offset],
        ),
      );
      const progress = this.progress as IndexProgress;
      const { known, changed } = await this.changedOf(rows.map((row) => this.indexedOf(row)));
      const newest = Math.max(progress.watermark, ...rows.map((row) => this.ctx.seconds(row.u, 'sessionUpdate')));
      if (changed.length > 0 || newest > progress.watermark) {
        const next = { ...progress, watermark: newest };
        await this.write({ upsert: changed, progress: next });
        this.progress = next;
        this.indexed += changed.filter((session) => !known.has(keyText(session.key))).length;
      }
      indexed += changed.length;
      if (rows.length < FOLLOW_BATCH) break;
      await sleep(0);
    }
    this.total = await this.agentCount();
    return indexed;
  }

  /** When the index holds more sessions than the agent's database, removes the ones no longer there; answers how many. */
  private async sweep(): Promise<number> {
    if (!this.progress?.filled || this.indexed <= this.total) return 0;
    const { s } = this.ctx;
    const present = new Set<string>();
    let after: SessionKey | null = null;
    for (;;) {
      const from: SessionKey | null = after;
      const rows: Row[] = await this.ctx.db.read((qx) =>
        qx.all(
          `SELECT ${s.app} AS app, ${s.user} AS user_id, ${s.id} AS id FROM ${s.t}
           WHERE ${from ? `(${s.app}, ${s.user}, ${s.id}) > (?, ?, ?)` : '1 = 1'} ORDER BY ${s.app}, ${s.user}, ${s.id} LIMIT ?`,
          [...((from ?? []) as Param[]), KEY_BATCH],
        ),
      );
      for (const row of rows) present.add(keyText(keyOf(row)));
      const last = rows[rows.length - 1];
      if (!last || rows.length < KEY_BATCH) break;
      after = keyOf(last);
      await sleep(0);
    }
    return this.removeAbsent(present);
  }

  /** Once filled, when the index holds more sessions than are `present`, removes the others; answers how many. */
  private async removeAbsent(present: Set<string>): Promise<number> {
    if (!this.progress?.filled || this.indexed <= present.size) return 0;
    const gone: SessionKey[] = [];
    let ours: SessionKey | null = null;
    for (;;) {
      const keys = await this.index.keysAfter(this.storeId, ours, KEY_BATCH);
      gone.push(...keys.filter((key) => !present.has(keyText(key))));
      ours = keys[keys.length - 1] ?? null;
      if (keys.length < KEY_BATCH) break;
      await this.slices.yield();
    }
    if (gone.length > 0) await this.write({ remove: gone });
    this.indexed = await this.index.count(this.storeId);
    this.total = present.size;
    return gone.length;
  }

  /**
   * The session with the docs of its events after the first `from` (in the
   * session's order, as its timeline numbers them), or of all of them when
   * it now has fewer than `from`; read a page at a time, yielding between.
   */
  private async withEvents(session: Omit<IndexedSession, 'events'>, from: number): Promise<IndexedSession> {
    const { e } = this.ctx;
    const where = `${e.app} = ? AND ${e.user} = ? AND ${e.session} = ?`;
    const counted = await this.ctx.db.read((qx) => qx.all(`SELECT count(*) AS n FROM ${e.t} WHERE ${where}`, session.key));
    const total = Number(counted[0]?.n ?? 0);
    const start = total < from || !(await this.samePrefix(session.key, from)) ? 0 : from;
    const events: SessionEvents = { from: start, count: start, docs: [] };
    // A state edit, or a session without events: nothing more to read.
    while (events.count < total) {
      const rows = await this.ctx.db.read((qx) =>
        qx.all(`SELECT ${e.cols} FROM ${e.t} WHERE ${where} ORDER BY ${e.ts}, ${e.id} LIMIT ? OFFSET ?`, [
          ...session.key,
          EVENT_PAGE,
          events.count,
        ]),
      );
      await this.slices.next();
      for (const row of rows) {
        events.count += 1;
        try {
          events.docs.push({ seq: events.count, body: eventSearchText(this.ctx.rows.event(row)).slice(0, BODY_LIMIT) });
        } catch {
          // An event the family cannot read: its session is still found by everything else.
        }
      }
      if (rows.length < EVENT_PAGE) break;
      await sleep(0);
    }
    return { ...session, events };
  }

  /**
   * Whether the session's first `from` events are still the ones indexed, as
   * far as one look can tell: the event now at place `from` has the text the
   * index holds there. An event placed between earlier ones (its timestamp
   * behind theirs) moves the ones after it, and the session is indexed anew.
   */
  private async samePrefix(key: SessionKey, from: number): Promise<boolean> {
    if (from === 0) return true;
    const { e } = this.ctx;
    const rows = await this.ctx.db.read((qx) =>
      qx.all(
        `SELECT ${e.cols} FROM ${e.t} WHERE ${e.app} = ? AND ${e.user} = ? AND ${e.session} = ? ORDER BY ${e.ts}, ${e.id} LIMIT 1 OFFSET ?`,
        [...key, from - 1],
      ),
    );
    const row = rows[0];
    if (!row) return false;
    let body: string | null = null;
    try {
      body = eventSearchText(this.ctx.rows.event(row)).slice(0, BODY_LIMIT);
    } catch {
      // An event the family cannot read has no doc.
    }
    return body === (await this.index.eventBody(this.storeId, key, from));
  }

  /** A session row as the index holds it: its id doc, its own keys' values, and its marker. */
  private indexedOf(row: Row): Omit<IndexedSession, 'events'> {
    const key = keyOf(row);
    const text = typeof row.state === 'string' ? row.state : JSON.stringify(row.state ?? null);
    const marker = `${this.ctx.seconds(row.u, 'sessionUpdate')}:${createHash('sha1').update(text).digest('base64')}`;
    let values: IndexedSession['values'] = [];
    try {
      values = Object.entries(this.ctx.codec.decodeState(row.state))
        // Some ADKs (adk-rust) keep copies of the shared tiers' keys in the session's blob: those are the tiers'.
        .filter(([name]) => scopeOfKey(name).scope === 'session')
        .map(([name, value]) => ({ key: name, body: JSON.stringify(value ?? null).slice(0, BODY_LIMIT) }));
    } catch {
      // A state the family cannot read: the session is still found by its ids.
    }
    return { key, marker, values };
  }
}
