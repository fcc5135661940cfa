// The connection to the agent's Redis: ioredis, one connection per store,
// used one operation at a time (mirror.ts queues them), so a WATCH is never
// crossed by another of the console's commands. A failure to reach Redis is
// an outage (503), never a bug.
import { Redis, ReplyError } from 'ioredis';
import { DatabaseUnavailableError } from '../../../db/unavailable';
import type { RedisLocation } from './location';

export type { Redis } from 'ioredis';

/** How long a command may wait for the server before the request answers 503. */
const COMMAND_TIMEOUT_MS = 5000;

export async function connectRedis(location: RedisLocation): Promise<Redis> {
  const client = new Redis(location.url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: COMMAND_TIMEOUT_MS,
    commandTimeout: COMMAND_TIMEOUT_MS,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  // Errors reach the caller of each command; the client's own event would otherwise be unhandled.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    throw new DatabaseUnavailableError(error);
  }
  return client;
}

/** Runs Redis commands; a failure that is not the server's answer (connection, timeout) becomes DatabaseUnavailableError. */
export async function redisCall<R>(fn: () => Promise<R>): Promise<R> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof ReplyError || !isConnectionFailure(error)) throw error;
    throw new DatabaseUnavailableError(error);
  }
}

function isConnectionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error instanceof DatabaseUnavailableError) return false;
  const code = (error as { code?: unknown }).code;
  return (
    typeof code === 'string' ||
    /Connection is closed|Stream isn't writeable|Command timed out|Reached the max retries|connect ETIMEDOUT/.test(error.message)
  );
}

/** Every key matching the pattern (SCAN, so the server is never blocked), each once; or the first `limit` found. */
export async function scanKeys(client: Redis, pattern: string, limit = Infinity): Promise<string[]> {
  const keys = new Set<string>();
  let cursor = '0';
  do {
    const [next, batch] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    for (const key of batch) keys.add(key);
    cursor = next;
  } while (cursor !== '0' && keys.size < limit);
  return [...keys].slice(0, limit);
}

/** One pipeline's answers: each command's result, or its error (a WRONGTYPE key breaks only its own read). */
export async function pipelined<T>(client: Redis, build: (pipe: ReturnType<Redis['pipeline']>) => void): Promise<Array<T | Error>> {
  const pipe = client.pipeline();
  build(pipe);
  const results = (await pipe.exec()) ?? [];
  return results.map(([error, value]) => (error ? error : (value as T)));
}
