'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { HISTORY_PAGE_SIZE, keyHistoryOptions, type KeyRef } from '@/lib/queries/history';
import { prefixedKey } from '@/lib/session-service/scope';
import { ChangeList } from './change-list';
import { Pager } from './pager';

interface KeyHistoryProps {
  keyRef: KeyRef;
  currentSession?: { userId: string; sessionId: string };
}

/** Every change of one key, newest first: support edits with actor and reason, and the events that wrote it. */
export function KeyHistory({ keyRef, currentSession }: KeyHistoryProps) {
  const [page, setPage] = useState(0);
  const history = useQuery(keyHistoryOptions(keyRef, page));
  const name = prefixedKey(keyRef.scope, keyRef.key);

  if (history.isPending) return <p className="py-2 text-xs text-muted">Loading the history of {name}…</p>;
  if (history.isError)
    return (
      <p role="alert" className="py-2 text-xs text-danger">
        Could not load the history of {name}: {history.error.message}
      </p>
    );
  const { items, total } = history.data;
  return (
    <div aria-busy={history.isFetching} className="text-sm">
      {total === 0 ? (
        <p className="py-2 text-xs text-muted">No recorded changes of {name}.</p>
      ) : (
        <ChangeList appName={keyRef.appName} changes={items} label={`History of ${name}`} currentSession={currentSession} />
      )}
      <Pager page={page} pageSize={HISTORY_PAGE_SIZE} total={total} onPage={setPage} noun={`changes of ${name}`} />
    </div>
  );
}
