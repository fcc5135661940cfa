// Opens an agent's database as a SessionStore: connect, read the schema,
// detect the family, build its codec. Nothing is written on the way.
import { openAgentDb, type AgentDb } from './agent-db';
import { createAdkSessionStore, type AdkSessionStore } from './base/store';
import type { StoreInfo } from '../../session-service/store';
import type { EditAudit } from './base/audit';
import { detectFamily } from './detect';
import type { AdkFamily } from './family';
import { ADK_FAMILIES } from './registry';
import { readSchema } from './schema';

export interface OpenAdkOptions {
  /** The store's id among those served (the composition root's key). */
  id?: string;
  audit?: EditAudit;
  families?: readonly AdkFamily[];
  /** Open read-only even when the family could write. */
  readOnly?: boolean;
  searchCountLimit?: number;
}

export async function openAdkStore(location: string, options: OpenAdkOptions = {}): Promise<AdkSessionStore> {
  const db: AgentDb = await openAgentDb(location);
  try {
    const schema = await readSchema(db);
    const { family, match } = detectFamily(schema, options.families ?? ADK_FAMILIES);
    const codec = await family.open(db, schema, match);
    const readOnlyReason =
      match.readOnlyReason ??
      (options.readOnly ? 'opened read-only.' : codec.writes ? undefined : `Statehouse does not write ${family.label} stores yet.`);
    const journal = db.journalMode ? `, journal mode ${db.journalMode}` : '';
    const info: StoreInfo = {
      id: options.id ?? 'agent',
      family: family.id,
      label: family.label,
      version: match.version,
      description: `${match.description}${journal}`,
      location: db.location,
      ...(readOnlyReason ? { readOnlyReason } : {}),
    };
    return createAdkSessionStore(db, codec, { info, audit: options.audit, searchCountLimit: options.searchCountLimit });
  } catch (error) {
    await db.close();
    throw error;
  }
}
