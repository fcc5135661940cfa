'use client';

import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { formatSeconds } from '@/components/state';
import { recentEventsOptions } from '@/lib/queries/template-preview';
import type { SessionRef } from '@/lib/session-service/store';
import type { Event } from '@/lib/session-service/types';
import { Select } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

function summary(event: Event): string {
  const text = event.content?.parts?.find((part) => typeof part.text === 'string')?.text;
  const call = event.content?.parts?.find((part) => part.functionCall)?.functionCall?.name;
  const what = text ? `“${text.length > 40 ? `${text.slice(0, 40)}…` : text}”` : call ? `calls ${call}` : 'state change';
  return `${event.author}: ${what}`;
}

interface AsOfSelectProps {
  session: SessionRef;
  asOf: number | null;
  onChange: (asOf: number | null) => void;
}

/** Picks the state to render against: now, or right after one of the session's newest events. */
export function AsOfSelect({ session, asOf, onChange }: AsOfSelectProps) {
  const id = useId();
  const events = useQuery(recentEventsOptions(session));
  const items = events.data?.items ?? [];
  const listed = asOf === null || items.some((item) => item.seq === asOf);
  return (
    <div className="flex min-w-0 max-w-full flex-wrap items-center gap-2">
      <Label htmlFor={id} className="text-sm text-foreground">
        State
      </Label>
      <Select
        id={id}
        value={asOf === null ? 'now' : String(asOf)}
        onChange={(event) => onChange(event.target.value === 'now' ? null : Number(event.target.value))}
        // The options describe events at length: the list is cut to the screen, not the screen widened to it.
        className="w-full min-w-0 max-w-full px-2 py-1 text-sm sm:w-auto"
      >
        <option value="now">Current state</option>
        {listed ? null : <option value={String(asOf)}>After event #{asOf}</option>}
        {items.map((item) => (
          <option key={item.seq} value={String(item.seq)}>
            After event #{item.seq} · {summary(item.event)} · {formatSeconds(item.event.timestamp)}
          </option>
        ))}
      </Select>
      {events.isError ? <span className="text-xs text-danger">Could not list the events: {events.error.message}</span> : null}
    </div>
  );
}
