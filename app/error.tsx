'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useEffect } from 'react';
import { describeTarget, targetOf } from '@/components/nav/describe-path';
import { APPS_PATH } from '@/lib/paths';

/**
 * In production, Next.js replaces a server error's message with a generic one
 * and a digest (so internals never reach the browser); the digest is what to
 * search the server log for.
 */
export default function ErrorBoundary({ error, retry }: { error: unknown; retry: () => void }) {
  const pathname = usePathname();
  const target = targetOf(pathname);
  const digest = hasDigest(error) ? error.digest : undefined;
  const message = error instanceof Error ? error.message : String(error);
  // Only a development build forwards the server's real message.
  const showMessage = process.env.NODE_ENV !== 'production' || digest === undefined;

  useEffect(() => {
    console.error(error);
  }, [error]);

  return (
    <div role="alert" className="mx-auto max-w-xl rounded-lg border border-danger/40 bg-surface px-6 py-8 shadow-sm">
      <h1 className="text-lg font-semibold text-danger">This page could not be loaded</h1>
      <p className="mt-2 text-sm">
        {target ? <>Reading the {describeTarget(target)} </> : <>Loading </>}
        (<code className="rounded bg-surface-muted px-1 py-0.5 text-xs">{pathname}</code>) failed on the server. The
        usual cause is the database: it is unreachable, locked by another process, or not migrated. Trying again
        reloads the data.
      </p>
      {showMessage && message ? (
        <pre className="mt-4 overflow-x-auto whitespace-pre-wrap rounded-md bg-danger-surface px-3 py-2 text-xs text-danger">
          {message}
        </pre>
      ) : null}
      {digest ? (
        <p className="mt-3 text-xs text-muted">
          The server log has the details under reference <code>{digest}</code>.
        </p>
      ) : null}
      <div className="mt-6 flex gap-3">
        <button
          type="button"
          onClick={() => retry()}
          className="rounded-md bg-accent px-4 py-2 text-sm font-medium text-accent-foreground hover:bg-accent-hover"
        >
          Try again
        </button>
        <Link
          href={APPS_PATH}
          className="rounded-md border border-border px-4 py-2 text-sm font-medium hover:bg-surface-muted"
        >
          All apps
        </Link>
      </div>
    </div>
  );
}

function hasDigest(error: unknown): error is { digest: string } {
  return typeof error === 'object' && error !== null && typeof (error as { digest?: unknown }).digest === 'string';
}
