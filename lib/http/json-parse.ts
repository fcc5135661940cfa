import type { JsonValue } from '../session-service/types';
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

/** Parses a request body; malformed JSON is a 400 that says where (line, column, offset) and what. */
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
  return value;
}
