'use client';

import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { eventOptions, liveStateOptions, stateAsOfOptions, type NormalFilters } from '@/lib/queries/session';
import type { SessionRef } from '@/lib/session-service/store';
import { AgentChat } from '@/components/agent-chat/agent-chat';
import { WhatIfButton } from '@/components/agent-chat/what-if-dialog';
import { ComparePanel } from './compare-panel';
import { LiveStatus } from './live-status';
import { StateColumns } from './state-columns';
import { TimeTravelBanner } from './time-travel-banner';
import { Timeline } from './timeline';
import { useLiveTimeline } from './use-live-timeline';
import { useSessionUrl } from './use-session-url';

/**
 * The interactive session page: state columns (now, or as of the selected
 * event), the comparison of two events, and the live timeline. Everything
 * it shows is in the URL.
 */
export function SessionView({
  appName,
  userId,
  sessionId,
  canEditUserState = false,
  canEditAppState = false,
  agentServer = null,
}: SessionRef & {
  canEditUserState?: boolean;
  canEditAppState?: boolean;
  /** The agent server a message can be sent through (shown as named), or null: no send box. */
  agentServer?: string | null;
}) {
  const sessionRef = useMemo(() => ({ appName, userId, sessionId }), [appName, userId, sessionId]);
  const [url, setUrl] = useSessionUrl();
  const { event: selected, compare, filters } = url;

  const live = useQuery(liveStateOptions(sessionRef));
  useLiveTimeline(sessionRef, live.data?.revision);
  const asOf = useQuery({ ...stateAsOfOptions(sessionRef, selected ?? 0), enabled: selected !== null });
  const selectedItem = useQuery({ ...eventOptions(sessionRef, selected ?? 0), enabled: selected !== null });

  const select = useCallback((seq: number | null) => setUrl({ event: seq, compare: null }), [setUrl]);
  const compareWith = useCallback((seq: number | null) => setUrl({ compare: seq }), [setUrl]);
  const applyFilters = useCallback((next: Partial<NormalFilters>) => setUrl({ filters: next }), [setUrl]);

  const view = selected === null ? live.data : asOf.data;
  return (
    <div className="space-y-6">
      <LiveStatus live={live} />
      {selected !== null ? (
        <TimeTravelBanner
          seq={selected}
          item={selectedItem.data}
          error={selectedItem.error ?? asOf.error}
          compare={compare}
          eventCount={live.data?.eventCount}
          onBack={() => select(null)}
          onCompare={compareWith}
        />
      ) : null}
      {agentServer && selected !== null ? <WhatIfButton sessionRef={sessionRef} seq={selected} /> : null}
      <StateColumns
        sessionRef={sessionRef}
        view={selected !== null && asOf.error ? undefined : view}
        changes={selected === null ? undefined : selectedItem.data?.changes}
        onSelectEvent={select}
        editUserState={canEditUserState && selected === null}
        editAppState={canEditAppState && selected === null}
      />
      {selected !== null && compare !== null ? <ComparePanel sessionRef={sessionRef} first={compare} second={selected} /> : null}
      {agentServer ? <AgentChat sessionRef={sessionRef} server={agentServer} eventCount={live.data?.eventCount} onSelect={select} /> : null}
      <Timeline
        sessionRef={sessionRef}
        filters={filters}
        selected={selected}
        compare={compare}
        onSelect={select}
        onCompare={compareWith}
        onFilters={applyFilters}
      />
    </div>
  );
}
