import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { getUserOverview } from '@/lib/data/users';
import { routeId } from '@/lib/data/route-params';

/**
 * Every page under a user (theirs and their sessions') needs the user to
 * exist. Checked here, before anything streams, so an unknown app or user
 * answers with a real 404; the page reads the same (cached) overview.
 */
export default async function UserLayout({ params, children }: { params: Promise<{ app: string; user: string }>; children: ReactNode }) {
  const { app, user } = await params;
  const appName = routeId(app);
  const userId = routeId(user);
  if (appName === null || userId === null || (await getUserOverview(appName, userId)) === null) notFound();
  return children;
}
