// Time to first byte of two dashboard pages on a running server: the page of
// a session with many events and the page of an app with many sessions. The
// server must read `databaseUrl`; the fixtures are written there once (app
// `statehouse-bench`) and reused by later runs.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { listSessions } from './data';
import { StatehouseTarget } from './implementations/statehouse';
import type { Scale } from './options';
import { median } from './stats';
import { buildEventSession } from './workloads';

export const DASHBOARD_APP = 'statehouse-bench';
const SESSION = { appName: DASHBOARD_APP, userId: 'bench-user', sessionId: 'bench-big' };

export interface PageTiming {
  path: string;
  status: number;
  /** Medians over the timed requests (a first, untimed request warms the server). */
  ttfbMs: number;
  totalMs: number;
  bytes: number;
  samples: number;
}

export interface DashboardResult {
  url: string;
  sessionEvents: number;
  appSessions: number;
  pages: PageTiming[];
}

async function seed(databaseUrl: string, scale: Scale): Promise<{ sessionEvents: number; appSessions: number }> {
  const target = await StatehouseTarget.open(databaseUrl);
  try {
    const existing = await target.get(SESSION);
    if (!existing) await buildEventSession(target, SESSION, scale.bigEvents);
    const sessionEvents = existing?.eventCount ?? scale.bigEvents;
    let appSessions = await target.list(DASHBOARD_APP);
    if (appSessions < scale.listAppSessions) {
      const perUser = scale.listUserSessions;
      const all = listSessions(Math.ceil(scale.listAppSessions / perUser), perUser);
      await target.seedSessions(DASHBOARD_APP, all);
      appSessions = await target.list(DASHBOARD_APP);
    }
    return { sessionEvents, appSessions };
  } finally {
    await target.close();
  }
}

function fetchTiming(url: string): Promise<{ status: number; ttfbMs: number; totalMs: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const request = url.startsWith('https:') ? httpsRequest : httpRequest;
    const req = request(url, { headers: { accept: 'text/html' } }, (res) => {
      let first = Number.NaN;
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        if (Number.isNaN(first)) first = performance.now() - start;
        bytes += chunk.length;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ttfbMs: first, totalMs: performance.now() - start, bytes }));
      res.on('error', reject);
    });
    req.setTimeout(120_000, () => req.destroy(new Error(`timeout: ${url}`)));
    req.on('error', reject);
    req.end();
  });
}

async function timePage(base: string, path: string, samples: number): Promise<PageTiming> {
  const url = new URL(path, base).toString();
  await fetchTiming(url);
  const runs = [];
  for (let i = 0; i < samples; i++) runs.push(await fetchTiming(url));
  return {
    path,
    status: runs[0]?.status ?? 0,
    ttfbMs: median(runs.map((r) => r.ttfbMs)),
    totalMs: median(runs.map((r) => r.totalMs)),
    bytes: runs[0]?.bytes ?? 0,
    samples,
  };
}

export async function measureDashboard(baseUrl: string, databaseUrl: string, scale: Scale): Promise<DashboardResult> {
  const seeded = await seed(databaseUrl, scale);
  const sessionPath = `/apps/${DASHBOARD_APP}/users/${SESSION.userId}/sessions/${SESSION.sessionId}`;
  const pages = [await timePage(baseUrl, sessionPath, 5), await timePage(baseUrl, `/apps/${DASHBOARD_APP}`, 5)];
  return { url: baseUrl, ...seeded, pages };
}
