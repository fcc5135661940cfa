// Locators and helpers for the session page specs (e2e/session-*.spec.ts).
import type { Locator, Page } from '@playwright/test';
import { sessionPath } from '../../lib/paths';
import type { NewEvent, Session, SessionRef, SessionStore } from '../../lib/session-service';

export function sessionUrl(session: Pick<Session, 'appName' | 'userId' | 'id'>, search = ''): string {
  return `${sessionPath(session.appName, session.userId, session.id)}${search}`;
}

export function refOf(session: Session): SessionRef {
  return { appName: session.appName, userId: session.userId, sessionId: session.id };
}

/** How many events the database holds for the session (-1 once it is gone). */
export async function eventCount(service: SessionStore, session: Session): Promise<number> {
  return (await service.getSessionSummary(refOf(session)))?.eventCount ?? -1;
}

/**
 * Opens the session page and waits until it is live: the browser's first
 * poll of the state answers once the page has hydrated (the server-rendered
 * HTML alone would not notice new events).
 */
export async function openSession(page: Page, session: Session, search = ''): Promise<void> {
  const live = page.waitForResponse((response) => new URL(response.url()).pathname.endsWith('/state') && response.ok());
  await page.goto(sessionUrl(session, search));
  await live;
  await page.getByRole('heading', { level: 2, name: 'Events' }).waitFor();
}

/** A state column: "App state", "User state", "Session state" or "What the agent sees". */
export function stateColumn(page: Page, title: string): Locator {
  return page.getByRole('region', { name: title, exact: true });
}

/** One key of a state column. */
export function stateEntry(page: Page, column: string, key: string): Locator {
  return stateColumn(page, column).getByRole('listitem', { name: key, exact: true });
}

/** The keys a state column lists, in order (its entries, not the JSON trees inside them). */
export function stateKeys(page: Page, column: string): Promise<(string | null)[]> {
  return stateColumn(page, column)
    .getByRole('list', { name: column, exact: true })
    .locator(':scope > li')
    .evaluateAll((items) => items.map((item) => item.getAttribute('aria-label')));
}

/** The append-event form, once opened. */
export function appendForm(page: Page): Locator {
  return page.getByRole('region', { name: 'Append an event', exact: true });
}

export function eventRow(page: Page, seq: number): Locator {
  return page.getByRole('article', { name: `Event #${seq}`, exact: true });
}

export function timelineRows(page: Page): Locator {
  return page.getByRole('feed', { name: 'Events' }).getByRole('article');
}

/** Appends one event through the HTTP API, as an agent outside the page would. */
export async function appendThroughApi(page: Page, session: Session, event: NewEvent): Promise<void> {
  const response = await page.request.post(
    `/api/apps/${encodeURIComponent(session.appName)}/users/${encodeURIComponent(session.userId)}/sessions/${encodeURIComponent(session.id)}/events`,
    {
      data: event,
    },
  );
  if (!response.ok()) throw new Error(`append failed: ${response.status()} ${await response.text()}`);
}
