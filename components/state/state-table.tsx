'use client';

import { useId, useState, type KeyboardEvent, type ReactNode } from 'react';
import { JsonTree, RowTabStop } from '@/components/json';
import type { ChangeSource, JsonValue, Scope } from '@/lib/session-service/types';
import { Provenance } from './provenance';
import { ScopeBadge } from './scope-badge';
import { Input } from '@/components/ui/input';
import { panelClass } from '@/components/ui/panel';

/** One key of a state table. A service `StateEntry` is one as it is. */
export interface StateTableEntry {
  /** The key as shown: unprefixed in a tier, prefixed (`user:plan`) in a merged view. */
  key: string;
  value: JsonValue;
  /** Where the value came from; links to the event that set it. */
  lastChange: ChangeSource | null;
  /** Shown as a badge when given (a merged view mixing tiers). */
  scope?: Scope;
}

export interface StateTableProps {
  /** Heading, and the accessible name of the list ("App state"). */
  title: string;
  /** The app the entries belong to; provenance links point into its sessions. */
  appName: string;
  entries: StateTableEntry[];
  /** One line under the title, e.g. "Shared by every user of weather". */
  description?: string;
  /**
   * Key filter controlled by the caller (one search box for several tables).
   * When absent, the table shows its own key search box.
   */
  keyFilter?: string;
  /** Shown when there are no entries at all. Default "No keys". */
  emptyText?: string;
  /** Keys (as shown) to mark as changed, e.g. by the selected event. */
  changedKeys?: ReadonlySet<string>;
  /** The session a page shows: provenance names its events "event #n" and links to them in place. */
  currentSession?: { userId: string; sessionId: string };
  /** With currentSession: called instead of navigating when a provenance link points at one of its events. */
  onSelectEvent?: (seq: number) => void;
  /** Caps the list's height and scrolls inside it (a CSS length, e.g. "24rem"). */
  maxHeight?: string;
  /** The title's heading level: 2 where the table is a part of the page (app, user), 3 under a page section. */
  headingLevel?: 2 | 3;
  /** Controls in the header, beside the count (e.g. "Add key"). */
  headerActions?: ReactNode;
  /** Controls at the end of each key's line (e.g. Edit, Remove, History). */
  rowActions?: (entry: StateTableEntry) => ReactNode;
  /** Shown under an entry's value (e.g. its history, when opened). */
  rowDetails?: (entry: StateTableEntry) => ReactNode;
}

export function matchesKey(key: string, filter: string): boolean {
  return filter === '' || key.toLowerCase().includes(filter.trim().toLowerCase());
}

/**
 * A tier's (or the merged) state: every key with its value as a JSON tree and
 * where the value came from, with a key search. Used by the app, user and
 * session pages.
 */
export function StateTable(props: StateTableProps) {
  const { title, entries, description, keyFilter, emptyText = 'No keys', changedKeys } = props;
  const [ownFilter, setOwnFilter] = useState('');
  const filter = keyFilter ?? ownFilter;
  const shown = entries.filter((entry) => matchesKey(entry.key, filter));
  const headingId = useId();
  const Heading = props.headingLevel === 2 ? 'h2' : 'h3';
  const hintId = useId();
  // Roving focus: the list is one tab stop (the active key), arrow keys move between keys.
  const [activeKey, setActiveKey] = useState<string | null>(null);
  const active = shown.some((entry) => entry.key === activeKey) ? activeKey : (shown[0]?.key ?? null);

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const row = (event.target as HTMLElement).closest('li[data-key]');
    if (row !== event.target) return;
    const rows = [...event.currentTarget.querySelectorAll<HTMLElement>(':scope > li[data-key]')];
    const index = rows.indexOf(row as HTMLElement);
    const next = { ArrowDown: index + 1, ArrowUp: index - 1, Home: 0, End: rows.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    rows[Math.max(0, Math.min(rows.length - 1, next))]?.focus();
  };

  return (
    <section aria-labelledby={headingId} className={panelClass({ className: 'flex min-w-0 flex-col' })}>
      <header className="border-b border-border px-3 py-2">
        <div className="flex items-baseline justify-between gap-2">
          <Heading id={headingId} className="text-sm font-semibold">
            {title}
          </Heading>
          <span className="flex items-center gap-2">
            <span className="text-xs tabular-nums text-muted">
              {shown.length === entries.length
                ? `${entries.length.toLocaleString('en')} ${entries.length === 1 ? 'key' : 'keys'}`
                : `${shown.length.toLocaleString('en')} of ${entries.length.toLocaleString('en')}`}
            </span>
            {props.headerActions}
          </span>
        </div>
        {description ? <p className="mt-0.5 text-xs text-muted">{description}</p> : null}
        {keyFilter === undefined ? (
          <Input
            type="search"
            value={ownFilter}
            onChange={(event) => setOwnFilter(event.target.value)}
            placeholder="Search keys"
            aria-label={`Search keys in ${title}`}
            className="mt-2 w-full px-2 py-1 text-sm"
          />
        ) : null}
      </header>
      {shown.length === 0 ? (
        <p className="px-3 py-4 text-sm text-muted">{entries.length === 0 ? emptyText : `No key matches “${filter.trim()}”`}</p>
      ) : (
        <>
          <p id={hintId} className="sr-only">
            Up and down arrow keys move between keys; Tab reaches the controls of the key you are on.
          </p>
          <ul
            aria-label={title}
            aria-describedby={hintId}
            onKeyDown={onKeyDown}
            className="divide-y divide-border overflow-y-auto"
            style={{ maxHeight: props.maxHeight }}
          >
            {shown.map((entry) => (
              <StateRow
                key={entry.key}
                entry={entry}
                changed={changedKeys?.has(entry.key) ?? false}
                active={entry.key === active}
                onActive={() => setActiveKey(entry.key)}
                {...props}
              />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

type StateRowContentProps = Pick<StateTableProps, 'appName' | 'currentSession' | 'onSelectEvent' | 'rowActions' | 'rowDetails'> & {
  entry: StateTableEntry;
  changed: boolean;
};

function StateRow({ active, onActive, ...row }: StateRowContentProps & { active: boolean; onActive: () => void }) {
  return (
    <li
      aria-label={row.entry.key}
      data-key={row.entry.key}
      tabIndex={active ? 0 : -1}
      onFocus={onActive}
      className={`scroll-mt-24 px-3 py-2 outline-offset-[-2px] ${row.changed ? 'bg-warning-surface/60' : ''}`}
    >
      <RowTabStop value={active}>
        <StateRowContent {...row} />
      </RowTabStop>
    </li>
  );
}

function StateRowContent({ entry, changed, appName, currentSession, onSelectEvent, rowActions, rowDetails }: StateRowContentProps) {
  return (
    <>
      {/* Wraps the actions under a long key rather than breaking the key mid-word. */}
      <div className="flex min-w-0 flex-wrap items-center gap-1.5">
        {entry.scope ? <ScopeBadge scope={entry.scope} /> : null}
        <code className="min-w-0 text-xs font-semibold break-words">
          <bdi>{entry.key}</bdi>
        </code>
        {changed ? <span className="rounded bg-warning-surface px-1 text-[10px] font-semibold uppercase text-warning">changed</span> : null}
        {rowActions ? <span className="ml-auto shrink-0">{rowActions(entry)}</span> : null}
      </div>
      <div className="mt-1">
        <JsonTree value={entry.value} label={entry.key} />
      </div>
      <p className="mt-1 text-[11px] leading-4">
        <Provenance appName={appName} change={entry.lastChange} currentSession={currentSession} onSelectEvent={onSelectEvent} />
      </p>
      {rowDetails?.(entry)}
    </>
  );
}
