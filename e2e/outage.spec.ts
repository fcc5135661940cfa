// The database going away under a running console (issue 6): the pages say
// so clearly (no stack trace, no blank page), offer a retry, and work again
// once the database is back, with no restart. The faults are real: another
// process (this one) holds the SQLite file's write lock, or a table the
// pages read is gone (a database nobody migrated). They hit both servers, so
// playwright.config.ts runs this file after every other spec, alone; to run
// it by itself: `npx playwright test e2e/outage.spec.ts --no-deps`.
import type { Page } from '@playwright/test';
import Sqlite from 'better-sqlite3';
import { sqliteFilePath } from '../lib/db';
import { APPS_PATH } from '../lib/paths';
import { expect, test } from './fixtures';
import { e2eDatabaseUrl } from './support/database';
import { appendForm, eventCount, eventRow, openSession, sessionUrl } from './support/session-page';

test.describe.configure({ mode: 'serial' });

/** A connection of another process to the servers' database file. */
function otherProcess(): Sqlite.Database {
  return new Sqlite(sqliteFilePath(e2eDatabaseUrl()));
}

/** Renames a table away (as if the database were not migrated); returns the function that puts it back. */
function removeTable(table: string): () => void {
  const db = otherProcess();
  db.exec(`ALTER TABLE ${table} RENAME TO ${table}_away`);
  return () => {
    db.exec(`ALTER TABLE ${table}_away RENAME TO ${table}`);
    db.close();
  };
}

/** The page's error state (the console's, or a segment's own). */
function errorState(page: Page) {
  return page.getByRole('alert').filter({ has: page.getByRole('heading', { name: /could not be loaded/ }) });
}

/** What a production error page must never show: a stack frame. */
const STACK_FRAME = /\bat \S+ \(.*:\d+:\d+\)|node_modules|webpack-internal/;

// The server waits for the lock (STATEHOUSE_SQLITE_BUSY_TIMEOUT_MS, 5 s by default) before it gives up.
const BUSY_WAIT = { timeout: 20_000 };

test('a write while another process holds the database locked says so, keeps the draft, and goes through once the lock is gone', async ({
  page,
  service,
  createSession,
}) => {
  const session = await createSession({ state: { topic: 'tea' } });
  await openSession(page, session);
  await page.getByRole('button', { name: 'Append an event' }).click();
  const form = appendForm(page);
  await form.getByLabel('Text').fill('Sent during the outage');

  const locker = otherProcess();
  locker.exec('BEGIN IMMEDIATE');
  try {
    await form.getByRole('button', { name: 'Append event' }).click();
    await expect(form.getByRole('alert')).toHaveText(
      'Not appended: The database is unavailable right now; nothing was saved. Try again shortly.',
      BUSY_WAIT,
    );
    await expect(form.getByLabel('Text')).toHaveValue('Sent during the outage');
    // Readers are not blocked by a writer (WAL): the session still reads, unchanged.
    const read = await page.request.get(`/api${sessionUrl(session)}`);
    expect(read.status(), await read.text()).toBe(200);
    expect(await eventCount(service, session)).toBe(0);
  } finally {
    locker.exec('ROLLBACK');
    locker.close();
  }

  await form.getByRole('button', { name: 'Append event' }).click();
  await expect(form.getByRole('status')).toContainText(/Appended event .+ by user\./);
  await expect(eventRow(page, 1)).toContainText('Sent during the outage');
  expect(await eventCount(service, session)).toBe(1);
});

test('pages that cannot read the database show a clear error with a retry, and recover once it is back', async ({
  page,
  createSession,
}) => {
  const session = await createSession({ state: { topic: 'tea', 'app:tone': 'warm' } });
  await openSession(page, session);

  let restore = removeTable('sessions');
  try {
    // The open page keeps what it shows and says why live updates stopped.
    const live = page.getByRole('alert').filter({ hasText: 'Live updates failed' });
    await expect(live).toContainText(
      'Database unavailable: The table `sessions` does not exist in the current database (are the migrations applied?).',
      { timeout: 30_000 },
    );
    await expect(live.getByRole('button', { name: 'Retry' })).toBeVisible();

    // Loading it afresh: the error state, naming what failed and the likely cause.
    await page.reload();
    const sessionError = errorState(page);
    await expect(sessionError.getByRole('heading', { level: 1 })).toHaveText(/could not be loaded$/);
    await expect(sessionError).toContainText(`the session “${session.id}”`, { ignoreCase: true });
    await expect(sessionError).toContainText('locked by another process, or not migrated');
    await expect(sessionError).toContainText(/The server log has the details under reference \S+/);
    await expect(sessionError).not.toContainText(STACK_FRAME);
  } finally {
    restore();
  }
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Events' })).toBeVisible();
  await expect(errorState(page)).toHaveCount(0);
  await expect(page.getByText('Live', { exact: true })).toBeVisible({ timeout: 15_000 });

  // Any other page: the console's error state, the same recovery.
  restore = removeTable('sessions');
  try {
    await page.goto(APPS_PATH);
    const pageError = errorState(page);
    await expect(pageError.getByRole('heading', { level: 1 })).toHaveText('This page could not be loaded');
    await expect(pageError).toContainText(
      'The usual cause is the database: it is unreachable, locked by another process, or not migrated.',
    );
    await expect(pageError).not.toContainText(STACK_FRAME);
    await expect(pageError.getByRole('button', { name: 'Try again' })).toBeVisible();
  } finally {
    restore();
  }
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('link', { name: session.appName, exact: true })).toBeVisible();
});
