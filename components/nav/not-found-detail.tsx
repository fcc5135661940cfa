'use client';

import { usePathname } from 'next/navigation';
import { describeTarget, targetOf } from './describe-path';

/**
 * Says what was not found. The not-found page gets no params, so it reads
 * the address: an unknown app, user or session, or a path the console has
 * no page for.
 */
export function NotFoundDetail() {
  const pathname = usePathname();
  const target = targetOf(pathname);
  if (!target) {
    return <>There is no page at this address. The link may be mistyped or out of date.</>;
  }
  return (
    <>
      There is no {describeTarget(target)} in this database. It may have been deleted, or the link may be mistyped (ids are case-sensitive).
    </>
  );
}
