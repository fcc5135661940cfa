import type { JsonValue } from '../session-service/types';
import { exceedsDepth, loneSurrogateProblem } from '../validation/json-checks';
import { lossyNumberMessage } from '../validation/json-numbers';
import { findJsonSyntaxError, lineAndColumn } from '../validation/json-syntax';
import { MAX_BODY_DEPTH } from './limits';
import { badRequest } from './problem';

const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/**
 * Parses a request body. Malformed JSON is a 400 that says where (line,
 * column, offset) and what; so is JSON we would store as something else
 * than was sent (too deep to store, numbers JSON.parse rounds, invalid Unicode).
 */
export function parseJsonBody(text: string): JsonValue {
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch (error) {
    const syntax = findJsonSyntaxError(text);
    if (!syntax) {
      // Valid JSON that the parser still refused (resource limits): say so rather than invent a position.
      throw badRequest(`Malformed JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
    const { line, column } = lineAndColumn(text, syntax.offset);
    throw badRequest(`Malformed JSON at line ${line}, column ${column} (character ${syntax.offset}): ${syntax.reason}`);
  }
  if (exceedsDepth(value, MAX_BODY_DEPTH)) {
    throw badRequest(`body: nested deeper than ${MAX_BODY_DEPTH} levels`);
  }
  const lossy = lossyNumberMessage(text);
  if (lossy) throw badRequest(`body: ${lossy}`);
  // The text was decoded strictly, so a lone surrogate can only come from a \uD800-\uDFFF escape.
  const unicode = SURROGATE_ESCAPE.test(text) ? loneSurrogateProblem(value) : null;
  if (unicode) throw badRequest(unicode);
  return value;
}
