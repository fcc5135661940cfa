// The console as a test drives it: opens its pages on the Statehouse server
// (which is usually not the app under test, so never the config's baseURL),
// with the API token on every request to that server in a protected deployment.
import type { Page } from '@playwright/test';
import type { StatehouseClient } from '../client.js';
import type { SessionRef } from '../types.js';
import { AppPage, AppsPage, SessionPage, UserPage } from './pages.js';

const segment = encodeURIComponent;

export class StatehouseConsole {
  private authorised = false;

  constructor(
    readonly page: Page,
    readonly client: StatehouseClient,
  ) {}

  /** The console's URL for a path. */
  url(path: string): string {
    return `${this.client.baseURL}${path}`;
  }

  private async open(path: string): Promise<void> {
    const headers = this.client.authHeaders();
    if (!this.authorised && Object.keys(headers).length > 0) {
      // Only requests to Statehouse carry the token; the app under test never sees it.
      await this.page.route(`${this.client.baseURL}/**`, (route) =>
        route.continue({ headers: { ...route.request().headers(), ...headers } }),
      );
      this.authorised = true;
    }
    await this.page.goto(this.url(path));
  }

  async apps(): Promise<AppsPage> {
    await this.open('/apps');
    return new AppsPage(this.page);
  }

  async app(appName: string): Promise<AppPage> {
    await this.open(`/apps/${segment(appName)}`);
    return new AppPage(this.page);
  }

  async user(appName: string, userId: string): Promise<UserPage> {
    await this.open(`/apps/${segment(appName)}/users/${segment(userId)}`);
    return new UserPage(this.page);
  }

  /** Opens a session's page and waits until its timeline is there (live updates start with it). */
  async session(ref: SessionRef): Promise<SessionPage> {
    await this.open(`/apps/${segment(ref.appName)}/users/${segment(ref.userId)}/sessions/${segment(ref.sessionId)}`);
    const view = new SessionPage(this.page);
    await view.timeline
      .or(view.page.getByRole('heading', { name: 'Events', level: 2 }))
      .first()
      .waitFor();
    return view;
  }
}
