'use client';

import { Provenance } from '@/components/state';
import { prefixedKey } from '@/lib/session-service/scope';
import type { StateChange } from '@/lib/session-service/types';
import { ValueChange } from './json-inline';

interface ChangeListProps {
  appName: string;
  changes: StateChange[];
  /** Label of the list for assistive technology ("History of user:plan"). */
  label: string;
  /** Show which key each change touched (a user's history mixes keys). */
  showKey?: boolean;
  /** The session a page shows, so its own events are named "event #n". */
  currentSession?: { userId: string; sessionId: string };
}

function kindOf(change: StateChange): string {
  if (change.oldValue === undefined) return 'added';
  if (change.newValue === undefined) return 'removed';
  return 'changed';
}

/** State changes, newest first: which key, old → new, and who, when and why (an edit's reason, or the event). */
export function ChangeList({ appName, changes, label, showKey = false, currentSession }: ChangeListProps) {
  return (
    <ol aria-label={label} className="divide-y divide-border">
      {changes.map((change) => (
        <li key={change.id} aria-label={`${prefixedKey(change.scope, change.key)} ${kindOf(change)}`} className="py-2 text-sm">
          <div className="flex min-w-0 flex-wrap items-baseline gap-x-2">
            {showKey ? <code className="text-xs font-semibold">{prefixedKey(change.scope, change.key)}</code> : null}
            <span className="text-[10px] font-semibold uppercase tracking-wide text-muted">{kindOf(change)}</span>
            <ValueChange oldValue={change.oldValue} newValue={change.newValue} />
          </div>
          <p className="mt-0.5 text-xs">
            <Provenance appName={appName} change={change} currentSession={currentSession} />
          </p>
        </li>
      ))}
    </ol>
  );
}
