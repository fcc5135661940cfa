// Import of ADK session files: one session (what `adk run --save_session`
// writes) or JSON Lines of them (an app's or a user's export). Every session
// is checked and looked up first; the preview says what would be created,
// what already exists and what is invalid, and an import writes all of them
// in one transaction or nothing.
import { z } from 'zod';
import { EVENT_SHAPE, convertAdkFields, type Shape } from '../validation/adk-case';
import { parseJsonBody } from '../validation/json-body';
import { parseWith } from '../validation/issues';
import { parseEvent } from '../validation/adk-event';
import { isJsonObject, stateSchema } from '../validation/json-schemas';
import { invalidInput, isSessionServiceError, SessionServiceError } from '../session-service/errors';
import { completeEvent, newId, storedForm } from '../session-service/events';
import { capability, type Audit, type SessionCopy } from '../session-service/operations';
import { initialStateFor } from '../session-service/replay';
import { scopeOfKey } from '../session-service/scope';
import type { SessionStore } from '../session-service/store';
import type { Event, JsonValue } from '../session-service/types';
import { idSchema } from '../validation/schemas';
import type { SpelledJson } from '../session-service/json-spelling';
import { eventSpellingsAt, spelledBody, spellingsAt } from '../session-service/value-spelling';

export const MAX_IMPORT_SESSIONS = 1000;
/** An import file may be larger than an ordinary request body: an app's export is many sessions. */
export const MAX_IMPORT_BYTES = 32 * 1024 * 1024;

export interface ImportTarget {
  appName: string;
  /** Every session goes to this user; without it, to the user the file names. */
  userId?: string;
}

export interface ImportOptions extends Audit {
  dryRun: boolean;
  /** Give every session a new id instead of the file's. */
  newIds?: boolean;
  /**
   * Write the events' app: and user: changes into the target's app and user
   * state, as the agent's appends did. Without it a session whose events
   * have such changes is refused (in the dry run too): its timeline would
   * show changes its tiers never had.
   */
  applySharedState?: boolean;
}

export type ImportStatus = 'create' | 'exists' | 'invalid';

export interface ImportItem {
  /** 1-based line of a JSON Lines file; 1 for a single session. */
  line: number;
  sessionId: string | null;
  userId: string | null;
  events: number;
  status: ImportStatus;
  problem?: string;
  /** app: and user: keys of the file's state, which are not written: the target's shared tiers stay as they are. */
  skippedSharedKeys: string[];
  /** app: and user: keys the events change: written into the target's tiers with applySharedState, else the session is refused. */
  sharedChanges: string[];
}

export interface ImportReport {
  items: ImportItem[];
  counts: Record<ImportStatus, number>;
  written: boolean;
}

const SESSION_FILE_SHAPE: Shape = {
  id: null,
  appName: null,
  userId: null,
  state: null,
  events: { items: EVENT_SHAPE },
  lastUpdateTime: null,
};

const sessionFileSchema = z.object({
  id: idSchema,
  appName: z.string().optional(),
  userId: idSchema.optional(),
  state: stateSchema.optional(),
  events: z.array(z.unknown()).max(100_000, 'at most 100,000 events a session').optional(),
  lastUpdateTime: z.number().finite().nonnegative().optional(),
});

interface Parsed {
  line: number;
  value?: JsonValue;
  /** The text as written, when it holds a value JSON.stringify spells otherwise (value-spelling.ts). */
  spelled?: SpelledJson | null;
  problem?: string;
}

const messageOf = (error: unknown): string => {
  if (isSessionServiceError(error)) return error.message;
  throw error;
};

/** The file's sessions: the whole text as one JSON object, else one object per non-blank line. */
export function splitSessionFile(text: string): Parsed[] {
  const trimmed = text.trim();
  if (trimmed === '') throw invalidInput('The file is empty: expected an ADK session (JSON) or sessions as JSON Lines.');
  if (trimmed.startsWith('{') && !trimmed.includes('\n{')) {
    try {
      return [{ line: 1, value: parseJsonBody(trimmed), spelled: spelledBody(trimmed) }];
    } catch (error) {
      return [{ line: 1, problem: messageOf(error) }];
    }
  }
  const parsed: Parsed[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    if (parsed.length === MAX_IMPORT_SESSIONS) {
      throw invalidInput(`The file has more than ${MAX_IMPORT_SESSIONS} sessions; split it.`);
    }
    try {
      parsed.push({ line: index + 1, value: parseJsonBody(line), spelled: spelledBody(line) });
    } catch (error) {
      parsed.push({ line: index + 1, problem: messageOf(error) });
    }
  }
  return parsed;
}

const isShared = (key: string) => {
  const { scope } = scopeOfKey(key);
  return scope === 'app' || scope === 'user';
};

interface Planned {
  item: ImportItem;
  copy?: SessionCopy;
  /** The id the file gives the session (the copy's own differs when new ids were asked for). */
  fileId?: string;
}

function plan(entry: Parsed, target: ImportTarget, options: ImportOptions): Planned {
  const item: ImportItem = {
    line: entry.line,
    sessionId: null,
    userId: null,
    events: 0,
    status: 'invalid',
    skippedSharedKeys: [],
    sharedChanges: [],
  };
  if (entry.problem !== undefined || entry.value === undefined) return { item: { ...item, problem: entry.problem } };
  try {
    if (!isJsonObject(entry.value)) throw invalidInput('expected an ADK session (a JSON object)');
    const converted = convertAdkFields(entry.value, SESSION_FILE_SHAPE);
    const file = parseWith(sessionFileSchema, converted);
    const rawEvents = isJsonObject(converted) && Array.isArray(converted.events) ? converted.events : [];
    item.sessionId = options.newIds ? newId() : file.id;
    item.userId = target.userId ?? file.userId ?? null;
    if (item.userId === null) throw invalidInput('userId: the file names no user; import it into a user.');
    const rawSpellings = eventSpellingsAt(entry.spelled, ['events']);
    const kept = rawEvents
      .map((raw, index) => ({ event: completeEvent(parseEvent(raw, `events.${index}`)), spellings: rawSpellings?.[index] }))
      .filter(({ event }) => !event.partial);
    const events: Event[] = kept.map(({ event }) => storedForm(event));
    const eventSpellings = rawSpellings && kept.map(({ spellings }) => spellings);
    const spellings = spellingsAt(entry.spelled, ['state']);
    item.events = events.length;
    const seen = new Set<string>();
    for (const [index, event] of events.entries()) {
      if (seen.has(event.id))
        throw invalidInput(`events.${index}.id: ${JSON.stringify(event.id)} is used by an earlier event of this session.`);
      seen.add(event.id);
    }
    const state = file.state ?? {};
    item.skippedSharedKeys = Object.keys(state)
      .filter((key) => scopeOfKey(key).scope !== 'session')
      .sort();
    item.sharedChanges = [
      ...new Set(events.flatMap((event) => Object.keys(event.actions.stateDelta).filter((key) => isShared(key)))),
    ].sort();
    if (item.sharedChanges.length > 0 && !options.applySharedState) {
      throw invalidInput(
        `its events change the app's or the user's state (${item.sharedChanges.slice(0, 5).join(', ')}); ` +
          'import with “apply app and user state” to write those changes as the agent did, or remove them from the file.',
      );
    }
    const initial = initialStateFor(state, events);
    if (!initial.ok) {
      throw invalidInput(`state: does not follow from the events for ${initial.keys.slice(0, 5).join(', ')}; the file was edited by hand?`);
    }
    const createTime = Math.min(...events.map((event) => event.timestamp), file.lastUpdateTime ?? Infinity);
    return {
      item: { ...item, status: 'create' },
      fileId: file.id,
      copy: {
        ...(Number.isFinite(createTime) ? { createTime } : {}),
        appName: target.appName,
        userId: item.userId,
        sessionId: item.sessionId,
        initialState: initial.initial,
        events,
        ...(spellings ? { spellings } : {}),
        ...(eventSpellings ? { eventSpellings } : {}),
        ...(item.sharedChanges.length > 0 ? { applySharedState: true } : {}),
        ...(file.lastUpdateTime === undefined ? {} : { lastUpdateTime: file.lastUpdateTime }),
      },
    };
  } catch (error) {
    return { item: { ...item, problem: messageOf(error) } };
  }
}

/**
 * A copy of a session this store holds (imported under a new id into the
 * same app) keeps that session's title and labels: a session file, in ADK's
 * format, has no room for them.
 */
async function withSourceMeta(store: SessionStore, copy: SessionCopy, fileId: string | undefined): Promise<SessionCopy> {
  if (fileId === undefined || fileId === copy.sessionId || !store.getSessionMeta) return copy;
  const meta = await store.getSessionMeta({ appName: copy.appName, userId: copy.userId, sessionId: fileId });
  return meta ? { ...copy, title: meta.title, labels: meta.labels } : copy;
}

/**
 * Checks every session of the file and, unless it is a dry run, writes them
 * all. An import with any invalid or existing session writes nothing and
 * fails: INVALID_INPUT or ALREADY_EXISTS, the report in the message's first lines.
 */
export async function importSessionFile(
  store: SessionStore,
  text: string,
  target: ImportTarget,
  options: ImportOptions,
): Promise<ImportReport> {
  // What the write would refuse, the dry run refuses too: never a plan the store cannot carry out.
  const refusal = store.refusalOf?.('import');
  if (refusal) throw refusal;
  const planned = splitSessionFile(text).map((entry) => plan(entry, target, options));
  const taken = new Map<string, number>();
  for (const { item } of planned) {
    if (item.status !== 'create' || item.userId === null || item.sessionId === null) continue;
    const key = JSON.stringify([item.userId, item.sessionId]);
    const first = taken.get(key);
    if (first !== undefined) {
      item.status = 'invalid';
      item.problem = `id: session ${item.sessionId} of user ${item.userId} is also on line ${first}.`;
      continue;
    }
    taken.set(key, item.line);
    const existing = await store.getSessionSummary({ appName: target.appName, userId: item.userId, sessionId: item.sessionId });
    if (existing) {
      item.status = 'exists';
      item.problem = `session ${item.sessionId} of user ${item.userId} already exists.`;
    }
  }
  const items = planned.map((entry) => entry.item);
  const counts = { create: 0, exists: 0, invalid: 0 };
  for (const item of items) counts[item.status] += 1;
  const report = { items, counts, written: false };
  if (options.dryRun) return report;

  const refused = items.find((item) => item.status !== 'create');
  if (refused) {
    const code = counts.invalid > 0 ? 'INVALID_INPUT' : 'ALREADY_EXISTS';
    throw new SessionServiceError(
      code,
      `Nothing imported: ${counts.invalid} invalid, ${counts.exists} already exist (line ${refused.line}: ${refused.problem ?? refused.status}).`,
    );
  }
  const copies = await Promise.all(planned.flatMap((entry) => (entry.copy ? [withSourceMeta(store, entry.copy, entry.fileId)] : [])));
  await capability(store, 'importSessions')(copies, { actor: options.actor, reason: options.reason });
  return { ...report, written: true };
}
