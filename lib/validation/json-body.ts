import type { JsonValue } from '../session-service/types';
import { exceedsDepth, loneSurrogateProblem } from './json-checks';
import { lossyNumberMessage } from './json-numbers';
import { MAX_BODY_DEPTH } from './limits';
import { parseJsonOrExplain } from './json-syntax';
import { invalidInput } from '../session-service/errors';

const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/**
 * Parses JSON text: a request body or a line of an import file. Malformed
 * JSON is INVALID_INPUT (a 400 at the API) that says where (line, column,
 * offset) and what; so is JSON we would store as something else
 * than was sent (too deep to store, numbers JSON.parse rounds, invalid Unicode).
 */
export function parseJsonBody(text: string): JsonValue {
  const parsed = parseJsonOrExplain(text, { withOffset: true });
  if (!parsed.ok) throw invalidInput(parsed.message);
  const value = parsed.value as JsonValue;
  if (exceedsDepth(value, MAX_BODY_DEPTH)) {
    throw invalidInput(`body: nested deeper than ${MAX_BODY_DEPTH} levels`);
  }
  const lossy = lossyNumberMessage(text);
  if (lossy) throw invalidInput(`body: ${lossy}`);
  // The text was decoded strictly, so a lone surrogate can only come from a \uD800-\uDFFF escape.
  const unicode = SURROGATE_ESCAPE.test(text) ? loneSurrogateProblem(value) : null;
  if (unicode) throw invalidInput(unicode);
  return value;
}
