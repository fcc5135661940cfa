import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Suspense } from 'react';
import { listHref } from '@/components/lists/href';
import { LiveRefresh } from '@/components/lists/live-refresh';
import { SearchForm } from '@/components/lists/search-form';
import { SearchedSessionList } from '@/components/lists/searched-session-list';
import { SavedViewsPanel } from '@/components/lists/saved-views-panel';
import { TableSkeleton } from '@/components/lists/skeleton';
import { Stats } from '@/components/lists/stats';
import { UserList } from '@/components/lists/user-list';
import { EventSearch } from '@/components/lists/event-search';
import { Breadcrumbs, trailTo } from '@/components/nav/breadcrumbs';
import { Tabs } from '@/components/nav/tabs';
import { SharedTierPanel } from '@/components/state-edit/shared-tier-panel';
import { getAppOverview } from '@/lib/data/apps';
import { choiceOf, DEFAULT_PAGE_SIZE, sessionListQueryOf, textOf, userListQueryOf, type SearchParams } from '@/lib/data/list-params';
import { MAX_FIND_LENGTH } from '@/lib/session-service/search';
import { metadataId, routeId } from '@/lib/data/route-params';
import { appPath, appExportPath } from '@/lib/paths';
import { mayWrite } from '@/lib/actions/authorize';
import { TransferBar } from '@/components/session-ops/transfer-bar';
import { operationRefusals } from '@/lib/data/session-ops';
import { appWatchUrls } from '@/lib/queries/live-lists';

interface AppPageProps {
  params: Promise<{ app: string }>;
  searchParams: Promise<SearchParams>;
}

const TABS = ['sessions', 'users', 'events'] as const;

export async function generateMetadata({ params }: AppPageProps): Promise<Metadata> {
  const { app } = await params;
  return { title: metadataId(app) };
}

export default async function AppPage({ params, searchParams }: AppPageProps) {
  const appName = routeId((await params).app);
  // Awaited before anything streams, so an unknown app is a real 404.
  const overview = appName === null ? null : await getAppOverview(appName);
  if (appName === null || overview === null) notFound();
  const search = await searchParams;
  const tab = choiceOf(search, 'tab', TABS);
  const pathname = appPath(appName);
  const { summary, state } = overview;
  const now = Date.now();
  const [canOperate, canPrune] = await Promise.all([mayWrite('sessionOps'), mayWrite('prune')]);

  return (
    <div>
      <Breadcrumbs trail={trailTo({ appName })} />
      <header className="mb-6">
        <p className="text-xs font-medium uppercase tracking-wide text-muted">App</p>
        <h1 className="break-all font-mono text-2xl font-semibold tracking-tight">{appName}</h1>
        <Stats of={summary} figure={{ label: 'Users with sessions', count: summary.userCount }} now={now} />
        <div className="mt-2">
          <LiveRefresh watch={appWatchUrls(appName)} appName={appName} renderedAt={now / 1000} />
        </div>
      </header>

      <SharedTierPanel tier={{ scope: 'app', appName }} entries={state} unreadable={overview.stateUnreadable} />

      <Tabs
        label="App lists"
        tabs={[
          { label: 'Sessions', href: pathname, current: tab === 'sessions', count: summary.sessionCount },
          // No count: the list also has users known only by their user state, which the summary does not count.
          { label: 'Users', href: listHref(pathname, { tab: 'users' }), current: tab === 'users' },
          { label: 'Events', href: listHref(pathname, { tab: 'events' }), current: tab === 'events' },
        ]}
      />
      <TransferBar
        appName={appName}
        exportHref={appExportPath(appName)}
        canOperate={canOperate}
        canPrune={canPrune}
        refusals={await operationRefusals()}
      />
      {tab === 'users' ? (
        <UsersView appName={appName} search={search} />
      ) : tab === 'events' ? (
        <EventSearch appName={appName} pathname={pathname} text={textOf(search, 'text', MAX_FIND_LENGTH)} now={now} />
      ) : (
        <SessionsView appName={appName} search={search} />
      )}
    </div>
  );
}

function SessionsView({ appName, search }: { appName: string; search: SearchParams }) {
  const query = sessionListQueryOf(search);
  const pathname = appPath(appName);
  return (
    <section aria-label="Sessions">
      <SavedViewsPanel pathname={pathname} appName={appName} headingLevel={2} />
      <SearchedSessionList
        appName={appName}
        query={query}
        pathname={pathname}
        placeholders={{ key: 'e.g. user:plan', value: 'e.g. pro' }}
      />
    </section>
  );
}

function UsersView({ appName, search }: { appName: string; search: SearchParams }) {
  const query = userListQueryOf(search);
  const pathname = appPath(appName);
  const pageParams = { tab: 'users' };
  return (
    <section aria-label="Users">
      <SearchForm
        label="Search users"
        pathname={pathname}
        keep={{ ...pageParams, sort: query.sort === 'recent' ? undefined : query.sort, size: sizeParam(query.size) }}
        fields={[{ name: 'q', label: 'User id contains', value: query.q, code: true }]}
      />
      <Suspense fallback={<TableSkeleton label="Loading users" columns={3} />}>
        <UserList appName={appName} query={query} pathname={pathname} pageParams={pageParams} />
      </Suspense>
    </section>
  );
}

function sizeParam(size: number): string | undefined {
  return size === DEFAULT_PAGE_SIZE ? undefined : String(size);
}
