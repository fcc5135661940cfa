'use client';

import { useMemo, useState } from 'react';
import { StateTable } from '@/components/state';
import { EditableStateTable } from '@/components/state-edit/editable-state-table';
import type { SessionStateView } from '@/lib/data/session-views';
import { mergedEntries } from '@/lib/session-service/merged-entries';
import { prefixedKey } from '@/lib/session-service/scope';
import type { SessionRef } from '@/lib/session-service/store';
import type { Scope, StateChange } from '@/lib/session-service/types';
import { Panel } from '@/components/ui/panel';
import { Input } from '@/components/ui/input';

interface StateColumnsProps {
  sessionRef: SessionRef;
  /** The tiers shown: now, or as of the selected event. Undefined while loading. */
  view: SessionStateView | undefined;
  /** The selected event's changes, marked in the columns. */
  changes?: StateChange[];
  onSelectEvent: (seq: number) => void;
  /** The user column offers support edits (the state now, not as of an event). */
  editUserState?: boolean;
  /** The app column offers admin edits (the state now), as the app page does. */
  editAppState?: boolean;
}

const COLUMN_HEIGHT = '26rem';

function keysOf(changes: StateChange[] | undefined, scope: Scope | 'merged'): Set<string> {
  const keys = new Set<string>();
  for (const change of changes ?? []) {
    if (scope === 'merged') keys.add(prefixedKey(change.scope, change.key));
    else if (change.scope === scope) keys.add(change.key);
  }
  return keys;
}

/** App, user and session tiers side by side, and the merged state the agent sees, with one key search for all four. */
export function StateColumns({ sessionRef, view, changes, onSelectEvent, editUserState = false, editAppState = false }: StateColumnsProps) {
  const [filter, setFilter] = useState('');
  const merged = useMemo(() => (view ? mergedEntries(view) : []), [view]);
  const { appName, userId, sessionId } = sessionRef;
  const common = {
    appName,
    keyFilter: filter,
    currentSession: { userId, sessionId },
    onSelectEvent,
    maxHeight: COLUMN_HEIGHT,
  };
  // The same columns whether the account may edit them or not.
  const appColumn = (shown: SessionStateView) => ({
    title: 'App state',
    description: `app: keys, shared by every user of ${appName}`,
    entries: shown.app,
    emptyText: 'No app state',
  });
  const userColumn = (shown: SessionStateView) => ({
    title: 'User state',
    description: `user: keys, shared by every session of ${userId}`,
    entries: shown.user,
    emptyText: 'No user state',
  });

  return (
    <section aria-labelledby="state-heading" className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="state-heading" className="text-lg font-semibold">
          State
        </h2>
        <Input
          type="search"
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
          placeholder="Search keys in every column"
          aria-label="Search state keys"
          className="w-full max-w-xs bg-surface"
        />
      </div>
      {view ? (
        <div className="grid gap-3 md:grid-cols-2 xl:grid-cols-4">
          {editAppState ? (
            <EditableStateTable {...common} {...appColumn(view)} tier={{ scope: 'app', appName }} />
          ) : (
            <StateTable {...common} {...appColumn(view)} changedKeys={keysOf(changes, 'app')} />
          )}
          {editUserState ? (
            <EditableStateTable {...common} {...userColumn(view)} tier={{ scope: 'user', appName, userId }} />
          ) : (
            <StateTable {...common} {...userColumn(view)} changedKeys={keysOf(changes, 'user')} />
          )}
          <StateTable
            {...common}
            title="Session state"
            description="Unprefixed keys, this session only"
            entries={view.session}
            changedKeys={keysOf(changes, 'session')}
            emptyText="No session state"
          />
          <StateTable
            {...common}
            title="What the agent sees"
            description="The merged state, each key with its tier"
            entries={merged}
            changedKeys={keysOf(changes, 'merged')}
            emptyText="The agent sees no state"
          />
        </div>
      ) : (
        <div aria-hidden="true" className="grid gap-3 md:grid-cols-2 xl:grid-cols-4">
          {[0, 1, 2, 3].map((column) => (
            <Panel key={column} className="h-48 animate-pulse" />
          ))}
        </div>
      )}
    </section>
  );
}
