// Which layout a Redis database holds, from its keys alone (never a write):
// adk-python's keys under its key_prefix, or adk-python-community's fixed
// `session:{id}` strings and `app::{app}:{user}` sets. A database with
// neither is refused with what was found; one with both asks which.
import { CannotReadStoreError } from '../detect';
import { scanKeys, type Redis } from './client';
import type { RedisLayoutName, RedisLocation } from './location';
import { PYTHON_DEFAULT_PREFIX, PYTHON_KINDS } from './python-layout';
import { globEscape } from './snapshot';

export interface DetectedLayout {
  layout: RedisLayoutName;
  /** adk-python's key_prefix. */
  prefix: string;
}

async function hasPythonKeys(client: Redis, prefix: string): Promise<boolean> {
  for (const kind of PYTHON_KINDS) {
    const [key] = await scanKeys(client, `${globEscape(prefix)}:${kind}:*`, 1);
    if (!key) continue;
    const type = await client.type(key);
    if ((kind === 'sessions_index' || kind === 'users_index' ? 'set' : 'hash') === type) return true;
  }
  return false;
}

async function hasCommunityKeys(client: Redis): Promise<boolean> {
  const [blob] = await scanKeys(client, 'session:*', 1);
  if (blob && (await client.type(blob)) === 'string') return true;
  const [set] = await scanKeys(client, 'app::*', 1);
  return set !== undefined && (await client.type(set)) === 'set';
}

const PYTHON_SHAPE = (prefix: string) =>
  `adk-python's RedisSessionService (${prefix}:session:{app}:{user}:{id} hashes, ${prefix}:sessions_index:{app}:{user} sets)`;
const COMMUNITY_SHAPE = "adk-python-community's RedisSessionService (session:{id} strings, app::{app}:{user} sets)";

export async function detectRedisLayout(client: Redis, location: RedisLocation): Promise<DetectedLayout> {
  const prefix = location.prefix ?? PYTHON_DEFAULT_PREFIX;
  if (location.layout === 'community') return { layout: 'community', prefix };
  if (location.layout === 'adk-python') return { layout: 'adk-python', prefix };
  const python = await hasPythonKeys(client, prefix);
  if (location.prefix !== undefined) {
    if (python) return { layout: 'adk-python', prefix };
    throw new CannotReadStoreError(
      `Cannot read ${location.display}: no keys of ${PYTHON_SHAPE(prefix)} under prefix=${prefix}. ${await found(client)}` +
        ' Add layout=adk-python to open it while it is still empty.',
    );
  }
  const community = await hasCommunityKeys(client);
  if (python && community)
    throw new CannotReadStoreError(
      `${location.display} holds keys of both ${PYTHON_SHAPE(prefix)} and ${COMMUNITY_SHAPE}: say which to open with ?layout=adk-python or ?layout=community.`,
    );
  if (python) return { layout: 'adk-python', prefix };
  if (community) return { layout: 'community', prefix };
  throw new CannotReadStoreError(
    `Cannot read ${location.display}: it holds no session keys of ${PYTHON_SHAPE(prefix)} (another key_prefix: add ?prefix=...) ` +
      `or of ${COMMUNITY_SHAPE}. ${await found(client)}`,
  );
}

async function found(client: Redis): Promise<string> {
  const size = await client.dbsize();
  if (size === 0) return 'The database is empty.';
  const sample = await scanKeys(client, '*', 5);
  return `Found ${size.toLocaleString('en')} key${size === 1 ? '' : 's'}, such as ${sample.map((key) => JSON.stringify(key)).join(', ')}.`;
}
