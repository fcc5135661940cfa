// Opens a Redis session store (docs/adk-stores.md, "Redis session stores"):
// connect, tell the layout from the keys, and serve it through the shared
// base over a mirror of what Redis holds (mirror.ts). Reads never write to
// Redis (no TTL is touched: SCAN, HGETALL, GET, SMEMBERS and TYPE leave it);
// writes are the layout's own commands.
import { readOnlyStore, unsupported } from '../../../session-service/errors';
import type { SessionRef, StoreInfo } from '../../../session-service/store';
import type { AgentQuery } from '../agent-db';
import type { EditAudit } from '../base/audit';
import type { CheckpointStore } from '../base/checkpoints';
import type { SessionLog } from '../base/session-log';
import { createAdkSessionStore, type AdkSessionStore } from '../base/store';
import { connectRedis, redisCall, type Redis } from './client';
import { redisCodec } from './codec';
import { communityDelete, communityWrites } from './community-writes';
import { communityKeys, readCommunityParts, readCommunitySnapshot } from './community-layout';
import { detectRedisLayout } from './detect';
import { parseRedisLocation } from './location';
import { RedisMirror } from './mirror';
import { pythonKeys, readPythonParts, readPythonSnapshot } from './python-layout';
import { pythonDelete, pythonWrites } from './python-writes';
import { RecordMemo } from './snapshot';

export { parseRedisLocation } from './location';

export interface RedisOpenOptions {
  id?: string;
  audit?: EditAudit;
  sessionLog?: SessionLog;
  checkpoints?: CheckpointStore;
  readOnly?: boolean;
  searchCountLimit?: number;
}

/** Why retention is not offered: neither service deletes sessions but one at a time, and their TTL is the agent's retention. */
export const REDIS_PRUNE_REFUSED =
  'Retention on a Redis session store is the agent’s TTL (session_ttl_seconds or expire); the console does not prune it. ' +
  'DELETE on a session in /api deletes that one, as the service’s delete_session does.';

export const REDIS_FAMILIES = {
  'adk-python': { id: 'adk-python-redis', label: 'adk-python RedisSessionService' },
  community: { id: 'adk-community-redis', label: 'adk-python-community RedisSessionService' },
} as const;

export async function openRedisStore(locationText: string, options: RedisOpenOptions = {}): Promise<AdkSessionStore> {
  const location = parseRedisLocation(locationText);
  const client: Redis = await connectRedis(location);
  try {
    const { layout, prefix } = await redisCall(() => detectRedisLayout(client, location));
    const family = REDIS_FAMILIES[layout];
    const python = pythonKeys(prefix);
    const readParts = (ref: SessionRef | undefined, appName: string, userId: string | undefined) =>
      layout === 'community' ? readCommunityParts(client, ref, appName, userId) : readPythonParts(client, python, ref, appName, userId);
    const memo = new RecordMemo();
    const mirror = new RedisMirror(
      location.display,
      () => (layout === 'community' ? readCommunitySnapshot(client, memo) : readPythonSnapshot(client, prefix, memo)),
      async () => {
        client.disconnect();
      },
    );
    // After a write: the session and its tiers read again; a community tier edit changes what every session of the app reads, so all of it.
    const refresh = async (_q: AgentQuery, ref?: SessionRef, appName?: string, userId?: string) => {
      if (!ref && !appName) return mirror.refresh();
      if (!ref && layout === 'community') return mirror.refresh();
      mirror.applyPartial(await redisCall(() => readParts(ref, appName ?? ref?.appName ?? '', userId ?? ref?.userId)));
    };
    const ttl = location.ttlSeconds !== undefined ? { ttlSeconds: location.ttlSeconds } : {};
    const writes =
      layout === 'community'
        ? communityWrites({ client, keys: communityKeys, refresh, ...ttl })
        : pythonWrites({ client, keys: python, refresh, ...ttl });
    const codec = redisCodec(layout, writes);
    const readOnlyReason = options.readOnly ? 'opened read-only.' : undefined;
    const ttlText = location.ttlSeconds
      ? `writes set a TTL of ${location.ttlSeconds} s, as the agent does`
      : 'writes keep each key’s TTL as found (ttl= to set it as the agent does)';
    const info: StoreInfo = {
      id: options.id ?? 'agent',
      family: family.id,
      label: family.label,
      version: layout === 'community' ? 'community' : 'integrations/redis',
      description:
        layout === 'community'
          ? `adk-python-community RedisSessionService: whole session JSON per session:{id} string, app::{app}:{user} sets, app:/user: hashes; no stale check; ${ttlText}`
          : `adk-python RedisSessionService (integrations/redis), prefix ${prefix}: a hash per session with a revision stale check, index sets, app_state/user_state hashes; ${ttlText}`,
      location: location.display,
      ...(readOnlyReason ? { readOnlyReason } : {}),
    };
    const base = createAdkSessionStore(mirror, codec, {
      info,
      audit: options.audit,
      sessionLog: options.sessionLog,
      checkpoints: options.checkpoints,
      searchCountLimit: options.searchCountLimit,
    });
    const remove = (ref: SessionRef) => (layout === 'community' ? communityDelete(client, ref) : pythonDelete(client, python, ref));
    return {
      ...base,
      ping: async () => {
        await redisCall(() => client.ping());
      },
      poolUse: () => undefined,
      refusalOf: (operation) => (operation === 'prune' ? unsupported(REDIS_PRUNE_REFUSED) : base.refusalOf?.(operation)),
      prune: async () => {
        throw unsupported(REDIS_PRUNE_REFUSED);
      },
      // delete_session's own commands; then the base drops the mirror's copy and Statehouse's title and labels.
      deleteSession: async (ref) => {
        if (info.readOnlyReason) throw readOnlyStore(info.readOnlyReason);
        await mirror.write(() => redisCall(() => remove(ref)));
        await base.deleteSession(ref);
      },
    };
  } catch (error) {
    client.disconnect();
    throw error;
  }
}
