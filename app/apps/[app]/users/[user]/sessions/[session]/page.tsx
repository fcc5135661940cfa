import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { AppendEventForm } from '@/components/append-event/append-event-form';
import { Breadcrumbs, trailTo } from '@/components/nav/breadcrumbs';
import { SessionView } from '@/components/session/session-view';
import { UnreadableSession } from '@/components/session/unreadable-session';
import { OperationsHistory } from '@/components/session-ops/operations-history';
import { SessionLinks } from '@/components/session-ops/session-links';
import { SessionOpsPanel } from '@/components/session-ops/session-ops-panel';
import { Timestamp } from '@/components/state';
import { SessionTemplatePreview } from '@/components/template-preview/session-template-preview';
import { mayWrite } from '@/lib/actions/authorize';
import { agentServerShown } from '@/lib/data/agent-server';
import { routeId } from '@/lib/data/route-params';
import { getSessionSummary } from '@/lib/data/session';
import { orUnreadable } from '@/lib/data/unreadable';
import { getSessionOps } from '@/lib/data/session-ops';
import { getStore } from '@/lib/services';
import { getQueryClient } from '@/lib/queries/get-query-client';
import { prefetchSessionPage, unreadableState } from '@/lib/queries/session-prefetch';
import { fromRecord, parseSessionUrl } from '@/lib/queries/session-url';
import type { SessionRef } from '@/lib/session-service/store';
import { SkipToTimeline } from '@/components/nav/skip-link';
import { CompareLink } from '@/components/compare/compare-link';
import { SessionNotes } from '@/components/notes/session-notes';
import { getSessionNotes } from '@/lib/data/notes';

interface SessionPageProps {
  params: Promise<{ app: string; user: string; session: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

async function sessionRefOf(params: SessionPageProps['params']): Promise<SessionRef | null> {
  const { app, user, session } = await params;
  const appName = routeId(app);
  const userId = routeId(user);
  const sessionId = routeId(session);
  return appName === null || userId === null || sessionId === null ? null : { appName, userId, sessionId };
}

export async function generateMetadata({ params }: SessionPageProps): Promise<Metadata> {
  // Metadata gets its params already decoded (the page does not): shown as they are.
  const { app, user, session } = await params;
  return { title: `Session ${session} · ${user} · ${app}` };
}

export default async function SessionPage({ params, searchParams }: SessionPageProps) {
  const ref = await sessionRefOf(params);
  if (!ref) notFound();
  const search = await searchParams;
  // The same cached summary the layout read (layout and page render in parallel, so both say why a row cannot be read).
  const read = await orUnreadable(getSessionSummary(ref.appName, ref.userId, ref.sessionId));
  if ('unreadable' in read) return <UnreadableSession session={ref} detail={read.unreadable} />;
  const summary = read.value;
  if (!summary) notFound();
  const service = await getStore();

  // Only the writes the signed-in account may make are offered.
  const [canAppend, canEditUserState, canEditAppState, canOperate, canPrune, canSend, ops, canNote, notes] = await Promise.all([
    mayWrite('appendEvent'),
    mayWrite('userState'),
    mayWrite('appState'),
    mayWrite('sessionOps'),
    mayWrite('prune'),
    mayWrite('sendMessage'),
    getSessionOps(ref),
    mayWrite('notes'),
    getSessionNotes(ref),
  ]);
  const queryClient = getQueryClient();
  await prefetchSessionPage(queryClient, service, ref, parseSessionUrl(fromRecord(search)));
  // A shared tier the session's state needs cannot be read: the page says which, as the API's 422 does.
  const unreadable = unreadableState(queryClient, ref);
  if (unreadable !== null) return <UnreadableSession session={ref} detail={unreadable} />;

  return (
    <div>
      <SkipToTimeline />
      <Breadcrumbs trail={trailTo(ref)} />
      <header className="mb-4">
        <p className="text-xs font-medium uppercase tracking-wide text-muted">Session</p>
        <h1 className="break-all font-mono text-2xl font-semibold tracking-tight">{ref.sessionId}</h1>
        <p className="mt-1 text-sm text-muted">
          User <span className="font-mono break-words text-foreground">{ref.userId}</span> of app{' '}
          <span className="font-mono break-words text-foreground">{ref.appName}</span> · created <Timestamp seconds={summary.createTime} />
        </p>
        {ops.meta ? <SessionLinks session={ref} meta={ops.meta} /> : null}
        <p className="mt-2">
          <CompareLink side={ref} />
        </p>
        <OperationsHistory operations={ops.operations} />
      </header>
      <SessionOpsPanel
        session={ref}
        eventCount={summary.eventCount}
        meta={ops.meta}
        invocations={ops.invocations}
        refusals={ops.refusals}
        canOperate={canOperate}
        canPrune={canPrune}
      />
      <div className="mb-6">
        <SessionNotes session={ref} notes={notes} canWrite={canNote} />
      </div>
      <HydrationBoundary state={dehydrate(queryClient)}>
        {canAppend ? (
          <div className="mb-6">
            <AppendEventForm session={ref} canWriteAppState={canEditAppState} />
          </div>
        ) : null}
        <SessionView
          {...ref}
          canEditUserState={canEditUserState}
          canEditAppState={canEditAppState}
          agentServer={canSend ? await agentServerShown(ref.appName) : null}
        />
        <div className="mt-8">
          <SessionTemplatePreview session={ref} />
        </div>
      </HydrationBoundary>
    </div>
  );
}
