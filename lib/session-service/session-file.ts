// ADK's session file: what `adk run --save_session` writes and
// `adk run --resume` loads (adk-python cli/cli.py: Session.model_dump_json(
// indent=2, exclude_none=True, by_alias=True), read back with
// Session.model_validate_json), i.e. ADK's Session in camelCase. An app's or
// a user's sessions export as JSON Lines, one such session per line.
import { setOwn } from './json';
import { jsonTextChunks } from './json-chunks';
import { KEY_PREFIX_APP, KEY_PREFIX_USER } from './scope';
import type { AdkSessionJson, JsonValue, Session, StateRecord } from './types';

/**
 * The state in a stable order, session keys, then app:, then user: keys,
 * each sorted: stores return keys in whatever order their rows come (on
 * PostgreSQL, the order rows were last written), and an export must not
 * change when nothing did.
 */
function canonicalState(state: StateRecord): StateRecord {
  const rank = (key: string) => (key.startsWith(KEY_PREFIX_APP) ? 1 : key.startsWith(KEY_PREFIX_USER) ? 2 : 0);
  const keys = Object.keys(state).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  const sorted: StateRecord = {};
  for (const key of keys) setOwn(sorted, key, state[key] as JsonValue);
  return sorted;
}

export function sessionFileOf(session: Session): AdkSessionJson {
  return {
    id: session.id,
    appName: session.appName,
    userId: session.userId,
    state: canonicalState(session.state),
    events: session.events,
    lastUpdateTime: session.lastUpdateTime,
  };
}

/** One session, as ADK writes the file (two-space indent). */
export function sessionFileText(session: Session): string {
  return JSON.stringify(sessionFileOf(session), null, 2);
}

/** sessionFileText's text, a chunk of events at a time. */
export function sessionFileChunks(session: Session): Generator<string> {
  return jsonTextChunks(sessionFileOf(session), 'events', 2);
}

/** One line of a JSON Lines export (the compact session file and a line break), a chunk of events at a time. */
export function* sessionLineChunks(session: Session): Generator<string> {
  yield* jsonTextChunks(sessionFileOf(session), 'events');
  yield '\n';
}

/** A download name: the id with anything a file system dislikes replaced. */
export function exportFileName(base: string, extension: 'session.json' | 'jsonl'): string {
  return `${base.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 100) || 'session'}.${extension}`;
}
