// A user none of whose sessions has an update time that can be read (an
// adk-python SqliteSessionService row holding text in a REAL column) is
// listed with no last activity, never 0 (which the console showed as 1970).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, expect, it } from 'vitest';
import { PY_SQLITE_DDL } from '../../testing/adk-fixtures';
import { openAdkStore, type AdkSessionStore } from '.';

let dir: string | undefined;
let store: AdkSessionStore | undefined;
afterEach(async () => {
  await store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  store = undefined;
  dir = undefined;
});

it('lists a user with no readable update time with none, and the others with theirs', async () => {
  dir = mkdtempSync(join(tmpdir(), 'h8-users-'));
  const path = join(dir, 'session.db');
  const db = new Database(path);
  db.exec(PY_SQLITE_DDL);
  const insert = db.prepare('INSERT INTO sessions VALUES (?, ?, ?, ?, ?, ?)');
  insert.run('app', 'ghost', 's1', '{}', 100, 'garbage');
  insert.run('app', 'alice', 's2', '{}', 100, 200.5);
  db.close();
  store = await openAdkStore(path);
  const users = await store.listUsers('app', { order: 'id' });
  expect(users.items).toEqual([
    { userId: 'alice', sessionCount: 1, lastUpdateTime: 200.5 },
    { userId: 'ghost', sessionCount: 1, lastUpdateTime: null },
  ]);
});
