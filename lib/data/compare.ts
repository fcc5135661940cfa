// The compare view's read: two sessions (or two users) tier by tier, each
// key marked as the same, changed or on one side only, and, for two
// sessions, the events each has after the ones they share (a fork and its
// source part at the fork point). Large values are cut as on the session
// page, each cut naming the route that answers with the whole of it.
import { appStateValuePath, sessionApiPath, userStateValuePath, type CompareSide } from '../paths';
import { compareTier, sharedPrefixLength, type KeyComparison } from '../session-service/compare';
import { eventGist } from '../session-service/event-gist';
import type { SessionRef, SessionStore } from '../session-service/store';
import type { JsonValue, Scope, SessionSummary, SessionTiers, StoredEvent } from '../session-service/types';
import { cutValue } from './value-cut';

/** Events read per page while looking for where two logs part. */
const SCAN_PAGE = 500;
/** At most this many events of each side are compared; past it the view says the two share at least that many. */
export const SCAN_LIMIT = 10_000;
/** Events shown of each side after the shared ones. */
export const DIVERGING_SHOWN = 25;

export interface SideView {
  side: CompareSide;
  /** The session's summary (two sessions), null when there is no such session or user. */
  summary: SessionSummary | null;
  /** For two users: how many sessions the user has. */
  sessionCount?: number;
}

export interface TierView {
  scope: Scope;
  /** Both sides read the very same tier (one app's state, one user's state): nothing can differ. */
  shared: boolean;
  rows: KeyComparison[];
}

export interface EventGistView {
  seq: number;
  id: string;
  author: string;
  timestamp: number;
  gist: string;
  error: boolean;
}

export interface EventsComparison {
  /** Events both logs start with (same ids in the same order). */
  shared: number;
  /** False when the scan stopped at SCAN_LIMIT with the logs still alike. */
  complete: boolean;
  /** Sequence number of the last shared event on each side (0 when none). */
  lastSharedSeq: [number, number];
  /** The first events after the shared ones, each side, and how many there are in all. */
  left: EventGistView[];
  right: EventGistView[];
  leftAfter: number;
  rightAfter: number;
}

export interface Comparison {
  kind: 'sessions' | 'users';
  left: SideView;
  right: SideView;
  /** Empty when either side does not exist. */
  tiers: TierView[];
  events: EventsComparison | null;
}

const sessionRef = (side: CompareSide): SessionRef | null =>
  side.sessionId === undefined ? null : { appName: side.appName, userId: side.userId, sessionId: side.sessionId };

type Source = (pointer: string) => string;

function tierSource(side: CompareSide, scope: Scope, key: string): Source {
  const ref = sessionRef(side);
  if (ref) {
    return (pointer) => `${sessionApiPath(ref)}/value?${new URLSearchParams({ at: 'state', tier: scope, key, pointer }).toString()}`;
  }
  return scope === 'app'
    ? (pointer) => appStateValuePath(side.appName, key, pointer)
    : (pointer) => userStateValuePath(side.appName, side.userId, key, pointer);
}

function cutRows(rows: KeyComparison[], scope: Scope, left: CompareSide, right: CompareSide): KeyComparison[] {
  const cut = (value: JsonValue | undefined, side: CompareSide, key: string) =>
    value === undefined ? undefined : cutValue(value, tierSource(side, scope, key));
  return rows.map((row) => {
    const cutLeft = cut(row.left, left, row.key);
    const cutRight = cut(row.right, right, row.key);
    return {
      key: row.key,
      standing: row.standing,
      ...(cutLeft === undefined ? {} : { left: cutLeft }),
      ...(cutRight === undefined ? {} : { right: cutRight }),
    };
  });
}

function tierView(scope: Scope, shared: boolean, left: CompareSide, right: CompareSide, tiers: [SessionTiers, SessionTiers]): TierView {
  return { scope, shared, rows: cutRows(compareTier(tiers[0][scope], tiers[1][scope]), scope, left, right) };
}

const sameApp = (left: CompareSide, right: CompareSide) => left.appName === right.appName;
const sameUser = (left: CompareSide, right: CompareSide) => sameApp(left, right) && left.userId === right.userId;

function gistOf({ seq, event }: StoredEvent): EventGistView {
  return {
    seq,
    id: event.id,
    author: event.author,
    timestamp: event.timestamp,
    gist: eventGist(event),
    error: Boolean(event.errorCode || event.errorMessage),
  };
}

/** Walks both logs a page at a time until their ids differ, one ends, or SCAN_LIMIT. */
async function compareEvents(store: SessionStore, left: SessionRef, right: SessionRef): Promise<EventsComparison> {
  let shared = 0;
  let lastSharedSeq: [number, number] = [0, 0];
  let complete = true;
  for (;;) {
    if (shared >= SCAN_LIMIT) {
      complete = false;
      break;
    }
    const [a, b] = await Promise.all([
      store.listEvents(left, { afterSeq: lastSharedSeq[0], limit: SCAN_PAGE }),
      store.listEvents(right, { afterSeq: lastSharedSeq[1], limit: SCAN_PAGE }),
    ]);
    const common = sharedPrefixLength(
      a.items.map((item) => item.event.id),
      b.items.map((item) => item.event.id),
    );
    const lastA = a.items[common - 1];
    const lastB = b.items[common - 1];
    if (lastA && lastB) lastSharedSeq = [lastA.seq, lastB.seq];
    shared += common;
    if (common < SCAN_PAGE || a.items.length < SCAN_PAGE || b.items.length < SCAN_PAGE) break;
  }
  const [afterLeft, afterRight] = await Promise.all([
    store.listEvents(left, { afterSeq: lastSharedSeq[0], limit: DIVERGING_SHOWN }),
    store.listEvents(right, { afterSeq: lastSharedSeq[1], limit: DIVERGING_SHOWN }),
  ]);
  return {
    shared,
    complete,
    lastSharedSeq,
    left: afterLeft.items.map(gistOf),
    right: afterRight.items.map(gistOf),
    leftAfter: afterLeft.total,
    rightAfter: afterRight.total,
  };
}

async function compareSessions(store: SessionStore, left: SessionRef, right: SessionRef, sides: [CompareSide, CompareSide]) {
  const [leftSummary, rightSummary, leftTiers, rightTiers] = await Promise.all([
    store.getSessionSummary(left),
    store.getSessionSummary(right),
    store.getSessionTiers(left),
    store.getSessionTiers(right),
  ]);
  const views: [SideView, SideView] = [
    { side: sides[0], summary: leftSummary },
    { side: sides[1], summary: rightSummary },
  ];
  if (!leftSummary || !rightSummary || !leftTiers || !rightTiers) return { views, tiers: [], events: null };
  const tiers = [
    tierView('session', false, sides[0], sides[1], [leftTiers, rightTiers]),
    tierView('user', sameUser(...sides), sides[0], sides[1], [leftTiers, rightTiers]),
    tierView('app', sameApp(...sides), sides[0], sides[1], [leftTiers, rightTiers]),
  ];
  return { views, tiers, events: await compareEvents(store, left, right) };
}

async function userSide(store: SessionStore, side: CompareSide): Promise<{ view: SideView; tiers: SessionTiers | null }> {
  const [sessions, user, app] = await Promise.all([
    store.searchSessions({ appName: side.appName, userId: side.userId, limit: 1 }),
    store.getUserState(side.appName, side.userId),
    store.getAppState(side.appName),
  ]);
  const exists = sessions.total > 0 || user.length > 0;
  return {
    view: { side, summary: null, sessionCount: exists ? sessions.total : undefined },
    tiers: exists ? { app, user, session: [] } : null,
  };
}

/** The two sides compared; a side that does not exist leaves the tiers empty (the page says which). */
export async function readComparison(store: SessionStore, left: CompareSide, right: CompareSide): Promise<Comparison> {
  const leftRef = sessionRef(left);
  const rightRef = sessionRef(right);
  if (leftRef && rightRef) {
    const { views, tiers, events } = await compareSessions(store, leftRef, rightRef, [left, right]);
    return { kind: 'sessions', left: views[0], right: views[1], tiers, events };
  }
  const [a, b] = await Promise.all([userSide(store, left), userSide(store, right)]);
  const tiers =
    a.tiers && b.tiers
      ? [
          tierView('user', sameUser(left, right), left, right, [a.tiers, b.tiers]),
          tierView('app', sameApp(left, right), left, right, [a.tiers, b.tiers]),
        ]
      : [];
  return { kind: 'users', left: a.view, right: b.view, tiers, events: null };
}

/** Candidates for the second side, each a ready comparison. */
export interface CompareChoice {
  side: CompareSide;
  /** Why it is offered: "forked from this at #12", "a fork of this at #3", "last active …". */
  note: string;
  /** Float seconds, when the choice is a session or user with activity. */
  time?: number;
}

const CHOICES = 10;

/** What the page offers as the second side: a session's fork source and forks, then its user's other recent sessions; a user's app's other recent users. */
export async function readCompareChoices(store: SessionStore, left: CompareSide): Promise<CompareChoice[]> {
  const ref = sessionRef(left);
  if (!ref) {
    const users = await store.listUsers(left.appName, { limit: CHOICES + 1 });
    return users.items
      .filter((user) => user.userId !== left.userId)
      .slice(0, CHOICES)
      .map((user) => ({
        side: { appName: left.appName, userId: user.userId },
        note: 'last active',
        ...(user.lastUpdateTime === null ? {} : { time: user.lastUpdateTime }),
      }));
  }
  const [meta, recent] = await Promise.all([
    store.getSessionMeta ? store.getSessionMeta(ref).catch(() => null) : Promise.resolve(null),
    store.searchSessions({ appName: ref.appName, userId: ref.userId, limit: CHOICES + 1 }),
  ]);
  const choices: CompareChoice[] = [];
  const at = (sessionId: string): CompareSide => ({ appName: ref.appName, userId: ref.userId, sessionId });
  if (meta?.forkedFrom)
    choices.push({ side: at(meta.forkedFrom.sessionId), note: `this session was forked from it at #${meta.forkedFrom.atSeq}` });
  for (const fork of meta?.forks ?? []) choices.push({ side: at(fork.sessionId), note: `forked from this session at #${fork.atSeq}` });
  const offered = new Set([ref.sessionId, ...choices.map((choice) => choice.side.sessionId)]);
  for (const session of recent.items) {
    if (choices.length >= CHOICES) break;
    if (offered.has(session.id)) continue;
    choices.push({
      side: at(session.id),
      note: session.title ? `“${session.title}”, last active` : 'last active',
      time: session.lastUpdateTime,
    });
  }
  return choices;
}
