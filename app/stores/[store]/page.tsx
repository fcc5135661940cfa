import { redirect } from 'next/navigation';
import { routeId } from '@/lib/data/route-params';
import { appsPath } from '@/lib/paths';

/** A store opens on its apps list. */
export default async function StorePage({ params }: { params: Promise<{ store: string }> }): Promise<never> {
  const store = routeId((await params).store);
  redirect(store === null ? '/' : appsPath(store));
}
