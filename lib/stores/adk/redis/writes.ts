// What a layout's writers work with: the client, the layout's key names, the
// operator's TTL, and a way to read what they wrote back into the mirror.
import type { SessionRef } from '../../../session-service/store';
import type { AgentQuery } from '../agent-db';
import type { Redis } from './client';

export interface RedisWriteContext<Keys> {
  client: Redis;
  keys: Keys;
  /** The agent's TTL (`?ttl=`), which its own writes set again; absent: every key keeps the TTL it has. */
  ttlSeconds?: number;
  /** Reads the session (when given) and the app's and user's tiers back into the mirror, inside the write. */
  refresh(q: AgentQuery, ref?: SessionRef, appName?: string, userId?: string): Promise<void>;
}
