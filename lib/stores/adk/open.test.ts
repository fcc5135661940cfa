// What opening a location that is no SQL session database says.
import { describe, expect, it } from 'vitest';
import { CannotReadStoreError, openAdkStore } from '.';

describe('openAdkStore', () => {
  it('refuses a Redis URL with what Statehouse opens instead, rather than taking it for a SQLite file name', async () => {
    for (const url of ['redis://127.0.0.1:6379/0', 'rediss://cache.example:6380']) {
      const refused = openAdkStore(url);
      await expect(refused).rejects.toThrow(CannotReadStoreError);
      await expect(openAdkStore(url)).rejects.toThrow(/does not open Redis session stores yet.*MySQL\/MariaDB/);
    }
  });
});
