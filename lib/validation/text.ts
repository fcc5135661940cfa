/*
 * Checks for the short strings stored in their own database columns (ids,
 * authors, invocation ids, actors, reasons). Values inside JSON are stored as
 * JSON text, escaped, and need none of this; these columns hold the raw
 * string, where PostgreSQL refuses NUL and both drivers turn an unpaired
 * surrogate into U+FFFD, silently storing something other than what was sent.
 */

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const CONTROL_EXCEPT_WHITESPACE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
/** A high surrogate not followed by a low one, or a low one not preceded by a high one (no `u` flag: code units). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** Bidirectional overrides and isolates: they make a name display as something else (Trojan Source). */
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/;

/** Whether a string is not valid Unicode (String.prototype.isWellFormed, which ES2023 lacks). */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

export const UNPAIRED_SURROGATE_MESSAGE = 'must be valid Unicode (it contains an unpaired surrogate)';

/** Why a one-line name (id, author, actor) is unacceptable, or null. */
export function nameProblem(text: string): string | null {
  if (hasLoneSurrogate(text)) return UNPAIRED_SURROGATE_MESSAGE;
  if (CONTROL.test(text)) return 'must not contain control characters';
  if (BIDI_CONTROL.test(text)) return 'must not contain bidirectional control characters';
  return null;
}

/** Why free text (a reason) is unacceptable, or null: tabs and line breaks are fine. */
export function freeTextProblem(text: string): string | null {
  if (hasLoneSurrogate(text)) return UNPAIRED_SURROGATE_MESSAGE;
  if (CONTROL_EXCEPT_WHITESPACE.test(text)) return 'must not contain control characters other than tabs and line breaks';
  return null;
}

/**
 * Why an app, user or session id is unacceptable, or null. Ids are path
 * segments of the API and the dashboard: `.` and `..` cannot be addressed in
 * a URL (clients collapse them), and ADK's own server cannot route an id with
 * a `/`; surrounding whitespace is refused because the service trims session
 * ids, which would store a different id than the one sent.
 */
export function idProblem(id: string): string | null {
  const problem = nameProblem(id);
  if (problem) return problem;
  if (id.trim() !== id) return 'must not start or end with whitespace';
  if (id === '.' || id === '..') return `must not be "${id}" (it cannot be addressed in a URL)`;
  if (/[/\\]/.test(id)) return 'must not contain "/" or "\\"';
  return null;
}
