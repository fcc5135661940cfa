// Where a newcomer to the demo should look first: the session with the most
// events (the richest timeline, time travel and compare), and the app the
// example agent is writing live.
import { requireViewer } from '../current-principal';
import { demoLiveApp } from '../config';
import { appPath, sessionPath } from '../paths';
import { getStore } from '../services';
import type { SessionStore } from '../session-service/store';
import type { SessionSummary } from '../session-service/types';

/** Apps and sessions per app looked at: the demo's data is small; a real store is never searched whole for this. */
const APPS_LOOKED_AT = 20;
const SESSIONS_PER_APP = 200;

export interface DemoGuide {
  /** The session with the most events among those looked at; null without sessions. */
  richest: SessionSummary | null;
  /** The app the example agent writes live; null when it is not running. */
  liveApp: string | null;
}

export async function readDemoGuide(store: SessionStore, liveApp: string | null): Promise<DemoGuide> {
  const apps = (await store.listApps()).slice(0, APPS_LOOKED_AT);
  let richest: SessionSummary | null = null;
  for (const app of apps) {
    const { items } = await store.searchSessions({ appName: app.appName, limit: SESSIONS_PER_APP });
    for (const session of items) if (!richest || session.eventCount > richest.eventCount) richest = session;
  }
  return { richest, liveApp };
}

/** The apps page's pointers, on the demo only (null elsewhere). */
export async function getDemoGuide(): Promise<DemoGuide | null> {
  const liveApp = demoLiveApp();
  if (liveApp === null) return null;
  await requireViewer();
  return readDemoGuide(await getStore(), liveApp);
}

/** The demo's start-up lines: where to begin and what is written live, as addresses under `baseUrl`. */
export function demoGuideLines(guide: DemoGuide, baseUrl: string): string[] {
  const lines: string[] = [];
  const { richest } = guide;
  if (richest) {
    lines.push(
      `Start here, the richest session (${richest.eventCount} events: timeline, time travel, compare): ${baseUrl}${sessionPath(richest.appName, richest.userId, richest.id)}`,
    );
  }
  if (guide.liveApp !== null) {
    lines.push(`Written live: the example agent adds a session to app "${guide.liveApp}" every 30 s: ${baseUrl}${appPath(guide.liveApp)}`);
  }
  return lines;
}
