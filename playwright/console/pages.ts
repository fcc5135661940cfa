// Page objects over the console's pages. Every locator is a role and an
// accessible name, so they keep working when the markup or styling changes.
import type { Locator, Page } from '@playwright/test';
import { StateLocators, type Tier } from './locators.js';

/** The parts every console page has: header navigation, breadcrumbs, the main heading. */
export class ConsolePage {
  readonly state: StateLocators;

  constructor(readonly page: Page) {
    this.state = new StateLocators(page);
  }

  get heading(): Locator {
    return this.page.getByRole('heading', { level: 1 });
  }
  get mainNavigation(): Locator {
    return this.page.getByRole('navigation', { name: 'Main', exact: true });
  }
  get breadcrumbs(): Locator {
    return this.page.getByRole('navigation', { name: 'Breadcrumb', exact: true });
  }
  /** One tier's row for a key (see StateLocators.row). */
  stateRow(tier: Tier, key: string): Locator {
    return this.state.row(tier, key);
  }
}

/** /apps: every app with its session and user counts. */
export class AppsPage extends ConsolePage {
  get table(): Locator {
    return this.page.getByRole('table', { name: 'Apps', exact: true });
  }
  get search(): Locator {
    return this.page.getByRole('searchbox', { name: 'App name contains' });
  }
  appRow(appName: string): Locator {
    return this.table.getByRole('row').filter({ has: this.page.getByRole('link', { name: appName, exact: true }) });
  }
  appLink(appName: string): Locator {
    return this.table.getByRole('link', { name: appName, exact: true });
  }
}

/** Lists of sessions (app and user pages). */
function sessionsTable(page: Page): Locator {
  return page.getByRole('table', { name: /^Sessions of / });
}

/** /apps/{app}: the app's state (editable by admins) and its sessions or users. */
export class AppPage extends ConsolePage {
  get sessionsTable(): Locator {
    return sessionsTable(this.page);
  }
  sessionLink(sessionId: string): Locator {
    return this.sessionsTable.getByRole('link', { name: sessionId, exact: true });
  }
  get usersTab(): Locator {
    return this.page.getByRole('navigation', { name: 'App lists', exact: true }).getByRole('link', { name: /^Users/ });
  }
  get sessionsTab(): Locator {
    return this.page.getByRole('navigation', { name: 'App lists', exact: true }).getByRole('link', { name: /^Sessions/ });
  }
}

/** /apps/{app}/users/{user}: the user's state, its history and their sessions. */
export class UserPage extends ConsolePage {
  get sessionsTable(): Locator {
    return sessionsTable(this.page);
  }
  sessionLink(sessionId: string): Locator {
    return this.sessionsTable.getByRole('link', { name: sessionId, exact: true });
  }
  get history(): Locator {
    return this.page.getByRole('region', { name: 'User state history', exact: true });
  }
}

export interface AppendEventInput {
  author?: string;
  invocationId?: string;
  text?: string;
  /** Written as JSON into the form's state delta field. */
  stateDelta?: Record<string, unknown>;
}

/** A session: its tiers, the merged state, the event timeline, time travel and the append form. */
export class SessionPage extends ConsolePage {
  get timeline(): Locator {
    return this.page.getByRole('feed', { name: 'Events', exact: true });
  }
  /** Every event the timeline shows (it renders the ones near the viewport of a long session). */
  get events(): Locator {
    return this.timeline.getByRole('article');
  }
  /** The event with this sequence number (1 for the first). */
  event(seq: number): Locator {
    return this.timeline.getByRole('article', { name: `Event #${seq}`, exact: true });
  }
  /** The event at this zero-based index of the session (events are numbered from 1 without gaps). */
  eventAt(index: number): Locator {
    return this.event(index + 1);
  }
  /** The state changes one event caused, a row per key (`user:plan`, `app:x`, `topic`). */
  eventChange(seq: number, key: string): Locator {
    return this.event(seq)
      .getByRole('list', { name: `State changes of event ${seq}`, exact: true })
      .getByRole('listitem', { name: key, exact: true });
  }

  // Time travel
  stateAfterButton(seq: number): Locator {
    return this.event(seq).getByRole('button', { name: `Show the state after event ${seq}`, exact: true });
  }
  get timeTravelBanner(): Locator {
    return this.page.getByRole('region', { name: 'Time travel', exact: true });
  }
  get backToNowButton(): Locator {
    return this.timeTravelBanner.getByRole('button', { name: 'Back to now', exact: true });
  }
  /** Shows every tier as it stood right after this event. */
  async travelTo(seq: number): Promise<void> {
    await this.stateAfterButton(seq).click();
    await this.timeTravelBanner.waitFor();
  }
  async backToNow(): Promise<void> {
    await this.backToNowButton.click();
    await this.timeTravelBanner.waitFor({ state: 'hidden' });
  }

  // Appending an event
  get appendButton(): Locator {
    return this.page.getByRole('button', { name: 'Append an event', exact: true });
  }
  get appendForm(): Locator {
    return this.page.getByRole('region', { name: 'Append an event', exact: true });
  }
  get appendAuthor(): Locator {
    return this.appendForm.getByRole('textbox', { name: 'Author', exact: true });
  }
  get appendInvocation(): Locator {
    return this.appendForm.getByRole('textbox', { name: 'Invocation id', exact: true });
  }
  get appendText(): Locator {
    return this.appendForm.getByRole('textbox', { name: 'Text', exact: true });
  }
  get appendStateDelta(): Locator {
    return this.appendForm.getByRole('textbox', { name: 'State delta (JSON object)', exact: true });
  }
  get appendSubmit(): Locator {
    return this.appendForm.getByRole('button', { name: 'Append event', exact: true });
  }
  /** "Appended event <id> by <author>.", once an append went through. */
  get appendedStatus(): Locator {
    return this.page.getByRole('status').filter({ hasText: /^Appended event / });
  }
  /** Opens the form, fills it in and appends; resolves when the page confirms it. */
  async appendEvent(input: AppendEventInput): Promise<void> {
    if (!(await this.appendForm.isVisible())) await this.appendButton.click();
    if (input.author !== undefined) await this.appendAuthor.fill(input.author);
    if (input.invocationId !== undefined) await this.appendInvocation.fill(input.invocationId);
    if (input.text !== undefined) await this.appendText.fill(input.text);
    if (input.stateDelta !== undefined) await this.appendStateDelta.fill(JSON.stringify(input.stateDelta));
    await this.appendSubmit.click();
    await this.appendedStatus.waitFor();
  }

  /** Edits an app: or user: key through the dialog, as a person would. */
  async editState(tier: 'app' | 'user', key: string, value: unknown, reason: string): Promise<void> {
    await this.state.editButton(tier, key).click();
    await this.state.editDialog.save(value, reason);
  }
}
