'use client';

import { useEffect, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { panelClass } from '@/components/ui/panel';

/**
 * An error boundary's body when a page's data could not be read on the
 * server. In production, Next.js replaces a server error's message with a
 * generic one and a digest (so internals never reach the browser); the digest
 * is what to search the server log for.
 */
export function LoadError({
  error,
  retry,
  title,
  children,
  otherAction,
}: {
  error: unknown;
  retry: () => void;
  title: string;
  /** What was being read and what usually makes that fail. */
  children: ReactNode;
  /** Shown beside "Try again". */
  otherAction?: ReactNode;
}) {
  const digest = hasDigest(error) ? error.digest : undefined;
  const message = error instanceof Error ? error.message : String(error);
  // Only a development build forwards the server's real message.
  const showMessage = process.env.NODE_ENV !== 'production' || digest === undefined;

  useEffect(() => {
    console.error(error);
  }, [error]);

  return (
    <div role="alert" className={panelClass({ tone: 'danger', className: 'mx-auto max-w-xl px-6 py-8' })}>
      <h1 className="text-lg font-semibold text-danger">{title}</h1>
      <p className="mt-2 text-sm">{children}</p>
      {showMessage && message ? (
        <pre className="mt-4 overflow-x-auto whitespace-pre-wrap rounded-md bg-danger-surface px-3 py-2 text-xs text-danger">{message}</pre>
      ) : null}
      {digest ? (
        <p className="mt-3 text-xs text-muted">
          The server log has the details under reference <code>{digest}</code>.
        </p>
      ) : null}
      <div className="mt-6 flex gap-3">
        <Button onClick={() => retry()} variant="primary" size="md">
          Try again
        </Button>
        {otherAction}
      </div>
    </div>
  );
}

function hasDigest(error: unknown): error is { digest: string } {
  return typeof error === 'object' && error !== null && typeof (error as { digest?: unknown }).digest === 'string';
}
