'use client';

import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Timestamp } from '@/components/state';
import type { SessionStateView } from '@/lib/data/session-views';
import { ApiError } from '@/lib/queries/session-api';
import { Button } from '@/components/ui/button';
import { revisionText } from './revision-text';

/** The session's live facts (events, last update, revision) and whether live updates are working. */
export function LiveStatus({ live }: { live: UseQueryResult<SessionStateView> }) {
  const { data, error } = live;
  const gone = error instanceof ApiError && error.status === 404;
  return (
    <div className="flex flex-wrap items-center gap-x-5 gap-y-1 text-sm">
      {data ? (
        <dl className="flex flex-wrap gap-x-5 gap-y-1">
          <Fact term="Events">{data.eventCount.toLocaleString('en')}</Fact>
          <Fact term="Last update">
            <Timestamp seconds={data.lastUpdateTime} />
          </Fact>
          <Fact term="Revision" title={revisionText(data.revision).title}>
            {revisionText(data.revision).text}
          </Fact>
        </dl>
      ) : null}
      {error ? (
        <p role="alert" className="flex items-center gap-2 text-danger">
          {gone ? 'This session has been deleted.' : `Live updates failed: ${error.message}`}
          {gone ? null : (
            <Button type="button" onClick={() => void live.refetch()} variant="secondary" size="xs">
              Retry
            </Button>
          )}
        </p>
      ) : (
        <p className="flex items-center gap-1.5 text-xs text-muted" title="New events and state changes appear within a second or two">
          <span aria-hidden="true" className="size-2 animate-pulse rounded-full bg-success" />
          Live
        </p>
      )}
    </div>
  );
}

function Fact({ term, title, children }: { term: string; title?: string; children: ReactNode }) {
  return (
    <div className="flex items-baseline gap-1.5">
      <dt className="text-xs text-muted">{term}</dt>
      <dd className="font-medium tabular-nums" title={title}>
        {children}
      </dd>
    </div>
  );
}
