// A Redis store location: `redis://[user:password@]host:port/db`, with
// Statehouse's own options after `?` (taken off before connecting):
// `prefix=` (adk-python's key_prefix), `layout=` (when the keys cannot tell),
// `ttl=` (the agent's TTL in seconds, which its writes set again).
import { redactUrl } from '../../../db/url';

export type RedisLayoutName = 'adk-python' | 'community';

export interface RedisLocation {
  /** What the client connects to: the URL without Statehouse's options. */
  url: string;
  /** The same without a password, for messages. */
  display: string;
  db: number;
  /** adk-python's key_prefix; absent: its default, `adk:session`. */
  prefix?: string;
  layout?: RedisLayoutName;
  /** Seconds; absent: Statehouse keeps every key's TTL as it finds it. */
  ttlSeconds?: number;
}

const LAYOUTS: Record<string, RedisLayoutName> = {
  'adk-python': 'adk-python',
  python: 'adk-python',
  community: 'community',
  'adk-python-community': 'community',
};

export function parseRedisLocation(location: string): RedisLocation {
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    throw new Error(`${redactUrl(location)} is not a Redis URL (redis://host:port/db).`);
  }
  const params = url.searchParams;
  const prefix = params.get('prefix') ?? undefined;
  const layoutName = params.get('layout');
  const ttl = params.get('ttl');
  for (const name of [...params.keys()])
    if (!['prefix', 'layout', 'ttl'].includes(name))
      throw new Error(`${name}= is not an option of a Redis store location (prefix=, layout=, ttl=).`);
  const layout = layoutName === null ? undefined : LAYOUTS[layoutName];
  if (layoutName !== null && !layout)
    throw new Error(`layout=${layoutName} is not a Redis layout Statehouse reads (adk-python or community).`);
  const ttlSeconds = ttl === null ? undefined : Number(ttl);
  if (ttlSeconds !== undefined && !(Number.isInteger(ttlSeconds) && ttlSeconds > 0))
    throw new Error(`ttl=${ttl} is not a whole number of seconds.`);
  const path = url.pathname.replace(/^\//, '');
  const db = path === '' ? 0 : Number(path);
  if (!Number.isInteger(db) || db < 0) throw new Error(`/${path} in ${redactUrl(location)} is not a Redis database number.`);
  url.search = '';
  const bare = url.toString();
  if (url.password) url.password = '***';
  return {
    url: bare,
    display: url.toString(),
    db,
    ...(prefix !== undefined ? { prefix } : {}),
    ...(layout ? { layout } : {}),
    ...(ttlSeconds !== undefined ? { ttlSeconds } : {}),
  };
}
