import type { Metadata } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import { listApps } from '@/lib/data/apps';
import { appPath } from '@/lib/paths';
import type { AppSummary } from '@/lib/session-service';

export const metadata: Metadata = { title: 'Apps' };

export default async function HomePage() {
  // The synchronous SQLite driver would otherwise answer during `next build`
  // and freeze the build machine's apps into a static page.
  await connection();
  const apps = await listApps();

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Apps</h1>
        <p className="mt-1 text-sm text-muted">
          Every agent app with sessions or shared state in this database.
        </p>
      </div>
      {apps.length === 0 ? <EmptyState /> : <AppTable apps={apps} now={Date.now()} />}
    </div>
  );
}

function AppTable({ apps, now }: { apps: AppSummary[]; now: number }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-border bg-surface shadow-sm">
      <table className="w-full text-left text-sm">
        <thead className="border-b border-border bg-surface-muted text-xs uppercase tracking-wide text-muted">
          <tr>
            <th scope="col" className="px-4 py-2.5 font-medium">App</th>
            <th scope="col" className="px-4 py-2.5 text-right font-medium">Sessions</th>
            <th scope="col" className="px-4 py-2.5 text-right font-medium">Users</th>
            <th scope="col" className="px-4 py-2.5 font-medium">Last activity</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-border">
          {apps.map((app) => (
            <tr key={app.appName} className="hover:bg-surface-muted/60">
              <td className="px-4 py-3">
                <Link
                  href={appPath(app.appName)}
                  className="font-mono font-medium text-accent hover:text-accent-hover hover:underline"
                >
                  {app.appName}
                </Link>
              </td>
              <td className="px-4 py-3 text-right tabular-nums">{app.sessionCount.toLocaleString('en')}</td>
              <td className="px-4 py-3 text-right tabular-nums">{app.userCount.toLocaleString('en')}</td>
              <td className="px-4 py-3">
                <LastActivity seconds={app.lastUpdateTime} now={now} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const absoluteTime = new Intl.DateTimeFormat('en', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
});

function LastActivity({ seconds, now }: { seconds: number | null; now: number }) {
  if (seconds === null) return <span className="text-muted">No sessions yet (shared state only)</span>;
  const date = new Date(seconds * 1000);
  return (
    <time dateTime={date.toISOString()} title={date.toISOString()} className="whitespace-nowrap">
      {relativeTime(date.getTime(), now)}
      <span className="ml-2 text-muted">{absoluteTime.format(date)} UTC</span>
    </time>
  );
}

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

function relativeTime(thenMs: number, nowMs: number): string {
  const diffSeconds = (thenMs - nowMs) / 1000;
  for (const [unit, size] of UNITS) {
    if (Math.abs(diffSeconds) >= size) return relative.format(Math.round(diffSeconds / size), unit);
  }
  return 'just now';
}

function EmptyState() {
  return (
    <div className="rounded-lg border border-dashed border-border-strong bg-surface px-6 py-10 text-center">
      <h2 className="text-lg font-semibold">No apps yet</h2>
      <p className="mx-auto mt-2 max-w-xl text-sm text-muted">
        An app appears here as soon as an agent creates a session in it. To explore the console with sample data,
        run this from the project folder:
      </p>
      <pre className="mx-auto mt-4 inline-block rounded-md bg-surface-muted px-4 py-2 text-left text-sm">
        npm run demo
      </pre>
      <p className="mx-auto mt-4 max-w-xl text-sm text-muted">
        Stop this server first: the demo migrates the database, seeds demo apps, users and sessions, and serves the
        console again on port 3000. Your own agents write here through the ADK-compatible API, e.g.{' '}
        <code className="rounded bg-surface-muted px-1 py-0.5 text-xs">
          POST /api/apps/&lt;app&gt;/users/&lt;user&gt;/sessions
        </code>
        .
      </p>
    </div>
  );
}
