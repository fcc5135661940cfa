import { afterEach, describe, expect, it } from 'vitest';
import { sqliteBusyTimeout } from './';

describe('SQLite busy timeout', () => {
  afterEach(() => {
    delete process.env.STATEHOUSE_SQLITE_BUSY_TIMEOUT_MS;
  });

  it('defaults to 5 s: the synchronous driver freezes the server while it waits', () => {
    expect(sqliteBusyTimeout()).toBe(5_000);
  });

  it('takes STATEHOUSE_SQLITE_BUSY_TIMEOUT_MS, falling back on the default for anything but a whole number of ms', () => {
    process.env.STATEHOUSE_SQLITE_BUSY_TIMEOUT_MS = '250';
    expect(sqliteBusyTimeout()).toBe(250);
    process.env.STATEHOUSE_SQLITE_BUSY_TIMEOUT_MS = '0';
    expect(sqliteBusyTimeout()).toBe(0);
    for (const bad of ['', ' ', '-1', '1.5', 'soon', '1e400']) {
      process.env.STATEHOUSE_SQLITE_BUSY_TIMEOUT_MS = bad;
      expect(sqliteBusyTimeout(), JSON.stringify(bad)).toBe(5_000);
    }
  });
});
