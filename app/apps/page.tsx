import type { Metadata } from 'next';
import { Suspense } from 'react';
import { Breadcrumbs, trailTo } from '@/components/nav/breadcrumbs';
import { AppsTable } from '@/components/lists/apps-table';
import { EmptyState } from '@/components/lists/empty-state';
import { plural } from '@/components/ui/format';
import type { ListQuery } from '@/components/lists/href';
import { LiveRefresh } from '@/components/lists/live-refresh';
import { Pagination } from '@/components/lists/pagination';
import { SearchForm } from '@/components/lists/search-form';
import { TableSkeleton } from '@/components/lists/skeleton';
import { findApps } from '@/lib/data/apps';
import { getDemoGuide } from '@/lib/data/demo-guide';
import { DemoGuidePanel } from '@/components/lists/demo-guide';
import { appListQueryOf, DEFAULT_PAGE_SIZE, type AppListQuery, type SearchParams } from '@/lib/data/list-params';
import { APPS_PATH } from '@/lib/paths';
import { APPS_WATCH_URLS } from '@/lib/queries/live-lists';

export const metadata: Metadata = { title: 'Apps' };

export default async function AppsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const query = appListQueryOf(await searchParams);
  const demo = await getDemoGuide();
  return (
    <div>
      <Breadcrumbs trail={trailTo()} />
      {demo ? <DemoGuidePanel guide={demo} /> : null}
      <div className="mb-6">
        <h1 className="text-2xl font-semibold tracking-tight">Apps</h1>
        <p className="mt-1 text-sm text-muted">Every agent app with sessions or shared state in this database.</p>
        <div className="mt-2">
          <LiveRefresh watch={APPS_WATCH_URLS} renderedAt={Date.now() / 1000} />
        </div>
      </div>
      <SearchForm
        label="Search apps"
        pathname={APPS_PATH}
        fields={[{ name: 'q', label: 'App name contains', value: query.q, code: true }]}
        keep={{ sort: query.sort === 'recent' ? undefined : query.sort, size: sizeParam(query.size) }}
      />
      <Suspense fallback={<TableSkeleton label="Loading apps" />}>
        <AppList query={query} />
      </Suspense>
    </div>
  );
}

function sizeParam(size: number): string | undefined {
  return size === DEFAULT_PAGE_SIZE ? undefined : String(size);
}

async function AppList({ query }: { query: AppListQuery }) {
  const { items, total, all } = await findApps(query);
  const listQuery: ListQuery = {
    q: query.q,
    sort: query.sort === 'recent' ? undefined : query.sort,
    size: sizeParam(query.size),
  };

  if (all === 0) return <NoApps />;
  if (total === 0) {
    return (
      <EmptyState title="No app matches">
        No app name contains “{query.q}”. {plural(all, 'app')} in all.
      </EmptyState>
    );
  }
  return (
    <>
      <AppsTable apps={items} sort={query.sort} pathname={APPS_PATH} query={listQuery} now={Date.now()} />
      <Pagination pathname={APPS_PATH} query={listQuery} page={query.page} size={query.size} total={total} noun="apps" />
    </>
  );
}

function NoApps() {
  return (
    <EmptyState title="No apps yet">
      <p>
        An app appears here as soon as an agent creates a session in it. To explore the console with sample data, run this from the project
        folder:
      </p>
      <pre className="mt-4 inline-block rounded-md bg-surface-muted px-4 py-2 text-left text-sm text-foreground">npm run demo</pre>
      <p className="mt-4">
        Stop this server first: the demo migrates the database, seeds demo apps, users and sessions, and serves the console again on port
        3000. Your own agents write here through the ADK-compatible API, e.g.{' '}
        <code className="rounded bg-surface-muted px-1 py-0.5 text-xs">POST /api/apps/&lt;app&gt;/users/&lt;user&gt;/sessions</code>.
      </p>
    </EmptyState>
  );
}
