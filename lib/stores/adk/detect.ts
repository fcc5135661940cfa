// Which ADK wrote a database, from its schema alone: the first family whose
// detect() recognises it. A database no family recognises, or one a family
// recognises but cannot read (v0 pickles), is refused with what was found.
import type { AdkFamily, FamilyMatch } from './family';
import { describeSchema, type SchemaInfo } from './schema';

export class CannotReadStoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CannotReadStoreError';
  }
}

export interface Detected {
  family: AdkFamily;
  match: FamilyMatch;
}

export function detectFamily(schema: SchemaInfo, families: readonly AdkFamily[]): Detected {
  for (const family of families) {
    const match = family.detect(schema);
    if (!match) continue;
    if (match.cannotRead) throw new CannotReadStoreError(match.cannotRead);
    return { family, match };
  }
  const metadata = schema.metadata ? ` and adk_internal_metadata ${JSON.stringify(Object.fromEntries(schema.metadata))}` : '';
  throw new CannotReadStoreError(
    `Cannot read this database: it is not a session store of a known ADK (${families.map((f) => f.label).join(', ')}). ` +
      `Found ${describeSchema(schema)}${metadata}.`,
  );
}
