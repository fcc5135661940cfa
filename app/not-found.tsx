import type { Metadata } from 'next';
import Link from 'next/link';
import { NotFoundDetail } from '@/components/nav/not-found-detail';
import { APPS_PATH } from '@/lib/paths';

export const metadata: Metadata = { title: 'Not found' };

export default function NotFound() {
  return (
    <div className="mx-auto max-w-xl rounded-lg border border-border bg-surface px-6 py-10 text-center shadow-sm">
      <p className="font-mono text-sm text-muted">404</p>
      <h1 className="mt-1 text-xl font-semibold">Page not found</h1>
      <p className="mt-2 text-sm text-muted">
        <NotFoundDetail />
      </p>
      <Link
        href={APPS_PATH}
        className="mt-6 inline-block rounded-md bg-accent px-4 py-2 text-sm font-medium text-accent-foreground hover:bg-accent-hover"
      >
        Back to all apps
      </Link>
    </div>
  );
}
