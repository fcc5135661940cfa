import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { UnreadableSession } from '@/components/session/unreadable-session';
import { routeId } from '@/lib/data/route-params';
import { getSessionSummary } from '@/lib/data/session';
import { orUnreadable } from '@/lib/data/unreadable';

/**
 * An unknown session is a real 404: checked here, outside the page's loading
 * boundary, before anything streams (a notFound() from inside a streamed
 * page could only answer 200). The page reads the same cached summary. A
 * session whose own row cannot be read says why here, in place of the page.
 */
export default async function SessionLayout({
  params,
  children,
}: {
  params: Promise<{ app: string; user: string; session: string }>;
  children: ReactNode;
}) {
  const { app, user, session } = await params;
  const [appName, userId, sessionId] = [routeId(app), routeId(user), routeId(session)];
  if (appName === null || userId === null || sessionId === null) notFound();
  const summary = await orUnreadable(getSessionSummary(appName, userId, sessionId));
  if ('unreadable' in summary) return <UnreadableSession session={{ appName, userId, sessionId }} detail={summary.unreadable} />;
  if (summary.value === null) notFound();
  return children;
}
