'use client';

import { useEffect } from 'react';

/**
 * The session could not be read on the server. In production Next replaces
 * the message with a digest (the server log has the details under it).
 */
export default function SessionError({ error, retry }: { error: unknown; retry: () => void }) {
  const digest = typeof error === 'object' && error !== null && 'digest' in error ? String(error.digest) : undefined;
  const message = error instanceof Error ? error.message : String(error);
  const showMessage = process.env.NODE_ENV !== 'production' || digest === undefined;

  useEffect(() => {
    console.error(error);
  }, [error]);

  return (
    <div role="alert" className="mx-auto max-w-xl rounded-lg border border-danger/40 bg-surface px-6 py-8 shadow-sm">
      <h1 className="text-lg font-semibold text-danger">The session could not be loaded</h1>
      <p className="mt-2 text-sm">
        Reading this session’s state and events from the database failed. The database may be unreachable, locked by
        another process, or not migrated.
      </p>
      {showMessage && message ? (
        <pre className="mt-4 overflow-x-auto whitespace-pre-wrap rounded-md bg-danger-surface px-3 py-2 text-xs text-danger">{message}</pre>
      ) : null}
      {digest ? <p className="mt-3 text-xs text-muted">The server log has the details under reference <code>{digest}</code>.</p> : null}
      <button
        type="button"
        onClick={() => retry()}
        className="mt-6 rounded-md bg-accent px-4 py-2 text-sm font-medium text-accent-foreground hover:bg-accent-hover"
      >
        Try again
      </button>
    </div>
  );
}
