// A tier's values as its blob spells them, when the blob comes back as JSON
// text (adk-python's json.dumps into a text column): a float written `2.0`
// still reads as one (template previews, Python dialect).
import { hasOwn } from '../../../session-service/json';
import { distinctText, mayBeSpelledApart, plainOf, spellJson } from '../../../session-service/json-spelling';
import type { StateRecord } from '../../../session-service/types';

/** Keys of `state` (decoded from `raw`) whose text in `raw` differs from JSON.stringify's, with that text. */
export function blobSpellings(raw: unknown, state: StateRecord): Map<string, string> {
  const written = new Map<string, string>();
  if (typeof raw !== 'string' || !mayBeSpelledApart(raw)) return written;
  const blob = spellJson(raw);
  if (blob?.kind !== 'object') return written;
  for (const [key, spelled] of blob.entries) {
    const text = distinctText(spelled);
    // Only where the codec read the same value from the blob.
    if (text !== undefined && hasOwn(state, key) && JSON.stringify(plainOf(spelled)) === JSON.stringify(state[key])) {
      written.set(key, text);
    }
  }
  return written;
}
