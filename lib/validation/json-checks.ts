// Checks of a parsed JSON value that JSON.parse does not make: how deep it
// nests and whether its strings are valid Unicode (shared by the API's body
// parser and the browser's JSON fields).
import type { JsonValue } from '../session-service/types';
import { hasLoneSurrogate } from './text';

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
