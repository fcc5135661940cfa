// Opens an agent's database as a SessionStore: connect, read the schema,
// detect the family, build its codec. Nothing is written on the way.
import { openAgentDb, type AgentDb } from './agent-db';
import { createAdkSessionStore, type AdkSessionStore } from './base/store';
import type { StoreInfo } from '../../session-service/store';
import type { EditAudit } from './base/audit';
import type { SessionLog } from './base/session-log';
import type { CheckpointStore } from './base/checkpoints';
import type { FollowOptions, SearchIndex } from './base/search-index';
import { CannotReadStoreError, detectFamily } from './detect';
import type { AdkFamily, StateMergeRule } from './family';
import { pythonSqliteFamily } from './python-sqlite';
import { isSqliteMergeRule, SQLITE_MERGE_RULES } from './python-sqlite/merge';
import { ADK_FAMILIES } from './registry';
import { isKnownZone } from './python-db/clock';
import { openRedisStore } from './redis';
import { readSchema } from './schema';

export interface OpenAdkOptions {
  /** The store's id among those served (the composition root's key). */
  id?: string;
  audit?: EditAudit;
  /** Titles, labels, fork links and the operations history, in Statehouse's own database. */
  sessionLog?: SessionLog;
  /** Where long sessions' time-travel checkpoints are kept (Statehouse's database when served); in memory when absent. */
  checkpoints?: CheckpointStore;
  families?: readonly AdkFamily[];
  /** Open read-only even when the family could write. */
  readOnly?: boolean;
  searchCountLimit?: number;
  /** The store's search index in Statehouse's own database, and how it is followed. */
  searchIndex?: SearchIndex;
  follow?: FollowOptions;
  /** The zone naive local timestamps were written in, when the rows cannot tell; also `?zone=` on the location. */
  zone?: string;
  /** SqliteSessionService's merge rule, when the file cannot tell; also `?merge=json_patch` on the location. */
  stateMerge?: StateMergeRule;
}

/** Takes `name=value` off a location's query, returning the value and the location without it. */
function takeOption(location: string, name: string): { location: string; value?: string } {
  const match = new RegExp(`([?&])${name}=([^&#]*)`).exec(location);
  if (!match) return { location };
  const rest =
    location.slice(0, match.index) + (match[1] === '?' ? '?' : '') + location.slice(match.index + match[0].length).replace(/^&/, '');
  return { location: rest.replace(/[?&]$/, ''), value: decodeURIComponent(match[2] ?? '') };
}

/** A location's store options (`?zone=Europe/Berlin`, `?merge=json_patch`), and the location without them for the driver. */
export function storeOptionsOf(location: string): { location: string; zone?: string; stateMerge?: StateMergeRule } {
  const zoned = takeOption(location, 'zone');
  const merged = takeOption(zoned.location, 'merge');
  const zone = zoned.value;
  if (zone !== undefined && !isKnownZone(zone))
    throw new Error(`zone=${zone} in a store location is not a time zone this runtime knows (an IANA name such as Europe/Berlin).`);
  const merge = merged.value;
  if (merge !== undefined && !isSqliteMergeRule(merge))
    throw new Error(`merge=${merge} in a store location is not a merge rule Statehouse knows: ${SQLITE_MERGE_RULES.join(' or ')}.`);
  return { location: merged.location, ...(zone !== undefined ? { zone } : {}), ...(merge !== undefined ? { stateMerge: merge } : {}) };
}

/** A Redis URL (redis/index.ts: its own layouts, not a SQL schema), which would otherwise be taken for a SQLite file name. */
export function isRedisLocation(location: string): boolean {
  return /^rediss?:\/\//.test(location);
}

export async function openAdkStore(location: string, options: OpenAdkOptions = {}): Promise<AdkSessionStore> {
  if (isRedisLocation(location)) return openRedisStore(location, options);
  const parsed = storeOptionsOf(location);
  const zone = options.zone ?? parsed.zone;
  const stateMerge = options.stateMerge ?? parsed.stateMerge;
  const db: AgentDb = await openAgentDb(parsed.location);
  try {
    const schema = await readSchema(db);
    const { family, match } = detectFamily(schema, options.families ?? ADK_FAMILIES);
    if (stateMerge && family.id !== pythonSqliteFamily.id)
      throw new CannotReadStoreError(`merge=${stateMerge} applies to adk-python SqliteSessionService files; this is ${family.label}.`);
    const codec = await family.open(db, schema, match, { ...(zone ? { zone } : {}), ...(stateMerge ? { stateMerge } : {}) });
    const readOnlyReason =
      match.readOnlyReason ??
      codec.readOnlyReason ??
      (options.readOnly ? 'opened read-only.' : codec.writes ? undefined : `Statehouse does not write ${family.label} stores yet.`);
    const journal = db.journalMode ? `, journal mode ${db.journalMode}` : '';
    const clock = [codec.mergeDescription, codec.clockDescription].map((part) => (part ? `; ${part}` : '')).join('');
    const info: StoreInfo = {
      id: options.id ?? 'agent',
      family: family.id,
      label: family.label,
      version: match.version,
      description: `${match.description}${journal}${clock}`,
      location: db.location,
      ...(readOnlyReason ? { readOnlyReason } : {}),
    };
    return createAdkSessionStore(db, codec, {
      info,
      audit: options.audit,
      sessionLog: options.sessionLog,
      checkpoints: options.checkpoints,
      searchCountLimit: options.searchCountLimit,
      searchIndex: options.searchIndex,
      follow: options.follow,
    });
  } catch (error) {
    await db.close();
    throw error;
  }
}
