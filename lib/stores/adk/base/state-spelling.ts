// A tier's values as its blob spells them, when the blob comes back as JSON
// text (adk-python's json.dumps into a text column): a float written `2.0`
// still reads as one (template previews, Python dialect), and is written
// back as one.
import { hasOwn } from '../../../session-service/json';
import { distinctText, mayBeSpelledApart, plainOf, spellJson, type SpelledJson } from '../../../session-service/json-spelling';
import { spelledRecord, type TierSpellings, type ValueSpellings } from '../../../session-service/value-spelling';
import type { ScopedDelta } from '../../../session-service/scope';
import type { StateRecord } from '../../../session-service/types';
import type { TierWritten } from '../family';

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

/**
 * A tier's values as their text spells them, for a family whose encoder
 * keeps a float a float (adk-python's json.dumps, adk-rust's serde_json): the
 * stored blob's, except for the `keys` the request writes, which are spelled
 * as the request spells them (`9` over a stored `9.0` is an int again).
 * Undefined when nothing is spelled apart (the common case: one regex test
 * of the blob).
 */
export function tierWritten(raw: unknown, spellings: ValueSpellings | undefined, keys: readonly string[] = []): SpelledJson | undefined {
  const entries = new Map<string, SpelledJson>();
  const blob = typeof raw === 'string' && mayBeSpelledApart(raw) ? spellJson(raw) : null;
  if (blob?.kind === 'object') for (const [key, spelled] of blob.entries) entries.set(key, spelled);
  for (const key of keys) entries.delete(key);
  if (spellings) for (const [key, spelled] of spelledRecord(spellings).entries) entries.set(key, spelled);
  return entries.size > 0 ? { kind: 'object', entries } : undefined;
}

type TierScope = 'app' | 'user' | 'session';

/** What a write puts into the tiers: the keys it sets in each, and their spellings (unprefixed keys). */
export interface TierRequest {
  spellings?: TierSpellings;
  keys?: Partial<Record<TierScope, readonly string[]>>;
}

/** tierWritten of each tier: its stored blob (raw), and the keys the request writes in it with their spellings. */
export function writtenTiers(raw: Partial<Record<TierScope, unknown>>, request: TierRequest = {}): TierWritten | undefined {
  const written: TierWritten = {};
  for (const scope of ['app', 'user', 'session'] as const) {
    const tier = tierWritten(raw[scope], request.spellings?.[scope], request.keys?.[scope]);
    if (tier) written[scope] = tier;
  }
  return Object.keys(written).length > 0 ? written : undefined;
}

/** The keys a delta sets in each tier. */
export function deltaKeys(delta: ScopedDelta): TierRequest['keys'] {
  return { app: Object.keys(delta.app), user: Object.keys(delta.user), session: Object.keys(delta.session) };
}
