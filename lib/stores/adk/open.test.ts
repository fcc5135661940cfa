// What opening a location that is no SQL session database says.
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../db/unavailable';
import { openAdkStore } from '.';

describe('openAdkStore', () => {
  it('takes a Redis URL for Redis, never for a SQLite file name: an unreachable server is an outage (503)', async () => {
    const refused = await openAdkStore('redis://127.0.0.1:1/0').catch((error: unknown) => error);
    expect(isDatabaseUnavailable(refused)).toBe(true);
  });
});
