// The current state's values as the native store keeps them: JSON text, so a
// float written `2.0` still reads as one (template previews, Python dialect).
import { toNumber } from './dialect';
import { sessionTiersSql } from './session-reads';
import { spellJson, type SpelledJson } from '../../session-service/json-spelling';
import { KEY_PREFIX_APP, KEY_PREFIX_USER } from '../../session-service/scope';
import type { SessionRef } from '../../session-service/store';
import type { StoreContext } from './context';

/** Parts of sessionTiersSql: 1 app, 2 user, 3 session keys, with the prefix the merged state gives them. */
const PREFIX_OF_PART = new Map([
  [1, KEY_PREFIX_APP],
  [2, KEY_PREFIX_USER],
  [3, ''],
]);

export async function getStateSpelling(ctx: StoreContext, ref: SessionRef): Promise<Map<string, SpelledJson> | null> {
  const rows = await ctx.client.$queryRaw<{ part: unknown; key: string | null; value: string | null }[]>(sessionTiersSql(ref));
  if (!rows.some((row) => toNumber(row.part) === 0)) return null;
  const spelling = new Map<string, SpelledJson>();
  for (const row of rows) {
    const prefix = PREFIX_OF_PART.get(toNumber(row.part));
    const spelled = row.value === null ? null : spellJson(row.value);
    if (prefix !== undefined && row.key !== null && spelled) spelling.set(prefix + row.key, spelled);
  }
  return spelling;
}
