// The current state's values as an ADK store's blobs spell them, when a blob
// comes back as JSON text (adk-python's json.dumps into a text column): a
// float written `2.0` still reads as one (template previews, Python dialect).
// A blob the driver hands over parsed (PostgreSQL jsonb) spells nothing.
import { spellJson, type SpelledJson } from '../../../session-service/json-spelling';
import { KEY_PREFIX_APP, KEY_PREFIX_USER } from '../../../session-service/scope';
import type { SessionRef } from '../../../session-service/store';
import type { AdkStoreContext } from './context';
import { sessionWithTiers } from './rows';

function addBlob(spelling: Map<string, SpelledJson>, raw: unknown, prefix: string): void {
  const blob = typeof raw === 'string' ? spellJson(raw) : null;
  if (blob?.kind !== 'object') return;
  for (const [key, value] of blob.entries) spelling.set(prefix + key, value);
}

export async function getStateSpelling(ctx: AdkStoreContext, ref: SessionRef): Promise<Map<string, SpelledJson> | null> {
  const rows = await sessionWithTiers(ctx, ref);
  if (!rows) return null;
  const spelling = new Map<string, SpelledJson>();
  addBlob(spelling, rows.row.stateRaw, '');
  addBlob(spelling, rows.app?.stateRaw, KEY_PREFIX_APP);
  addBlob(spelling, rows.user?.stateRaw, KEY_PREFIX_USER);
  return spelling;
}
