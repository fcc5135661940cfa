import type { JsonValue } from '../session-service/types';
import { lossyNumberMessage } from '../validation/json-numbers';
import { hasLoneSurrogate } from '../validation/text';
import { MAX_BODY_DEPTH } from './limits';
import { findJsonSyntaxError, lineAndColumn } from './json-syntax';
import { badRequest } from './problem';

/** Nesting depth of a parsed value, without recursion (a 2 MiB body can nest a million levels). */
export function exceedsDepth(value: JsonValue, limit: number): boolean {
  const stack: [JsonValue, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [JsonValue, number];
    if (current === null || typeof current !== 'object') continue;
    if (depth + 1 > limit) return true;
    const children = Array.isArray(current) ? current : Object.values(current);
    for (const child of children) stack.push([child, depth + 1]);
  }
  return false;
}

const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

const pathText = (path: readonly string[]) => ['body', ...path].join('.');

/**
 * Where a parsed body holds a string that is not valid Unicode (JSON allows
 * `"\ud800"`; storage would turn it into U+FFFD), as a message, or null.
 * Iterative; run after the depth check.
 */
export function loneSurrogateProblem(value: JsonValue): string | null {
  const stack: [JsonValue, string[]][] = [[value, []]];
  while (stack.length > 0) {
    const [current, path] = stack.pop() as [JsonValue, string[]];
    if (typeof current === 'string') {
      if (hasLoneSurrogate(current)) return `${pathText(path)}: not valid Unicode (an unpaired surrogate such as \\ud800)`;
    } else if (Array.isArray(current)) {
      current.forEach((child, index) => stack.push([child, [...path, String(index)]]));
    } else if (current !== null && typeof current === 'object') {
      for (const key of Object.keys(current)) {
        if (hasLoneSurrogate(key)) return `${pathText(path)}: a key is not valid Unicode (an unpaired surrogate such as \\ud800)`;
        stack.push([current[key] as JsonValue, [...path, key]]);
      }
    }
  }
  return null;
}

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
