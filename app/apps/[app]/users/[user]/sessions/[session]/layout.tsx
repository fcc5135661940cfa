import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { routeId } from '@/lib/data/route-params';
import { getSessionSummary } from '@/lib/data/session';

/**
 * An unknown session is a real 404: checked here, outside the page's loading
 * boundary, before anything streams (a notFound() from inside a streamed
 * page could only answer 200). The page reads the same cached summary.
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
  if ((await getSessionSummary(appName, userId, sessionId)) === null) notFound();
  return children;
}
