import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { LiveRefresh } from '@/components/lists/live-refresh';
import { SearchedSessionList } from '@/components/lists/searched-session-list';
import { SavedViewsPanel } from '@/components/lists/saved-views-panel';
import { Stats } from '@/components/lists/stats';
import { Breadcrumbs, trailTo } from '@/components/nav/breadcrumbs';
import { SharedTierPanel } from '@/components/state-edit/shared-tier-panel';
import { UserHistory } from '@/components/history/user-history';
import { sessionListQueryOf, type SearchParams } from '@/lib/data/list-params';
import { metadataId, routeId } from '@/lib/data/route-params';
import { getUserOverview } from '@/lib/data/users';
import { userExportPath, userPath } from '@/lib/paths';
import { mayWrite } from '@/lib/actions/authorize';
import { TransferBar } from '@/components/session-ops/transfer-bar';
import { operationRefusals } from '@/lib/data/session-ops';
import { userWatchUrls } from '@/lib/queries/live-lists';
import { CompareLink } from '@/components/compare/compare-link';

interface UserPageProps {
  params: Promise<{ app: string; user: string }>;
  searchParams: Promise<SearchParams>;
}

export async function generateMetadata({ params }: UserPageProps): Promise<Metadata> {
  const { app, user } = await params;
  return { title: `${metadataId(user)} · ${metadataId(app)}` };
}

export default async function UserPage({ params, searchParams }: UserPageProps) {
  const { app, user } = await params;
  const appName = routeId(app);
  const userId = routeId(user);
  const overview = appName === null || userId === null ? null : await getUserOverview(appName, userId);
  if (appName === null || userId === null || overview === null) notFound();
  const query = sessionListQueryOf(await searchParams);
  const pathname = userPath(appName, userId);
  const canOperate = await mayWrite('sessionOps');

  return (
    <div>
      <Breadcrumbs trail={trailTo({ appName, userId })} />
      <header className="mb-6">
        <p className="text-xs font-medium uppercase tracking-wide text-muted">User</p>
        <h1 className="break-all font-mono text-2xl font-semibold tracking-tight">{userId}</h1>
        <Stats of={overview} figure={{ label: 'User state keys', count: overview.state.length }} now={Date.now()} />
        <p className="mt-2">
          <CompareLink side={{ appName, userId }} label="Compare with another user…" />
        </p>
        <div className="mt-2">
          <LiveRefresh watch={userWatchUrls(appName, userId)} appName={appName} renderedAt={Date.now() / 1000} />
        </div>
      </header>

      <SharedTierPanel tier={{ scope: 'user', appName, userId }} entries={overview.state} unreadable={overview.stateUnreadable} />

      <section aria-label="User state history" className="mb-8">
        <UserHistory appName={appName} userId={userId} />
      </section>

      <section aria-label="Sessions">
        <h2 className="mb-3 text-lg font-semibold">Sessions</h2>
        <TransferBar
          appName={appName}
          userId={userId}
          exportHref={userExportPath(appName, userId)}
          refusals={await operationRefusals()}
          canOperate={canOperate}
          canPrune={false}
        />
        <SavedViewsPanel pathname={pathname} appName={appName} userId={userId} headingLevel={3} />
        <SearchedSessionList
          appName={appName}
          userId={userId}
          query={query}
          pathname={pathname}
          placeholders={{ key: 'e.g. topic', value: 'e.g. "refund"' }}
        />
      </section>
    </div>
  );
}
