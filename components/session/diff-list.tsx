'use client';

import { JsonPrimitive, JsonTree } from '@/components/json';
import { ScopeBadge } from '@/components/state';
import type { ChangeKind } from '@/lib/session-service/state-diff';
import type { JsonValue, Scope, StateChange } from '@/lib/session-service/types';
import { prefixedKey, scopeOfKey } from '@/lib/session-service/scope';
import { changeKind } from '@/lib/session-service/state-diff';
import { ChangeKindBadge } from './change-kind-badge';
import { Button } from '@/components/ui/button';

export interface DiffRow {
  /** Prefixed as the agent sees it. */
  key: string;
  scope: Scope;
  kind: ChangeKind;
  /** undefined: absent before (added). */
  before?: JsonValue;
  /** undefined: absent after (removed). */
  after?: JsonValue;
}

/** An event's state changes (from the key history) as diff rows. */
export function rowsOfChanges(changes: StateChange[]): DiffRow[] {
  return changes.map((change) => ({
    key: prefixedKey(change.scope, change.key),
    scope: change.scope,
    kind: changeKind(change.oldValue, change.newValue),
    before: change.oldValue,
    after: change.newValue,
  }));
}

/** A diff of two merged states (prefixed keys) as diff rows. */
export function rowOfKey(key: string, kind: ChangeKind, before?: JsonValue, after?: JsonValue): DiffRow {
  const { scope } = scopeOfKey(key);
  return { key, scope: scope === 'temp' ? 'session' : scope, kind, before, after };
}

interface DiffListProps {
  rows: DiffRow[];
  /** Accessible name of the list, e.g. "State changes of event 37". */
  label: string;
  /** Offers "only events touching this key" per row. */
  onFilterKey?: (key: string) => void;
}

/** Per-key diffs: scope, key, added / changed / removed, old value → new value. */
export function DiffList({ rows, label, onFilterKey }: DiffListProps) {
  return (
    <ul aria-label={label} className="divide-y divide-border rounded-md border border-border">
      {rows.map((row) => (
        <li key={row.key} aria-label={row.key} className="px-2 py-1.5">
          <div className="flex flex-wrap items-center gap-1.5">
            <ScopeBadge scope={row.scope} />
            <code className="text-xs font-semibold break-words">
              <bdi>{row.key}</bdi>
            </code>
            <ChangeKindBadge kind={row.kind} />
            {onFilterKey ? (
              <Button
                variant="chip"
                onClick={() => onFilterKey(row.key)}
                title="Only events that changed this key"
                className="text-[11px] text-muted"
              >
                <span className="sr-only">{`Show only events that changed ${row.key}: `}</span>
                filter
              </Button>
            ) : null}
          </div>
          <DiffValues row={row} />
        </li>
      ))}
    </ul>
  );
}

const isPrimitive = (value: JsonValue | undefined) => value === undefined || value === null || typeof value !== 'object';

/** Small values read inline (`"free" → "pro"`); objects and arrays get a tree each, before above after. */
function DiffValues({ row }: { row: DiffRow }) {
  if (isPrimitive(row.before) && isPrimitive(row.after)) {
    return (
      <p className="mt-0.5 flex flex-wrap items-baseline gap-x-2 font-mono text-xs">
        <InlineValue value={row.before} label={`${row.key} before`} missing="absent" />
        <span aria-label="becomes" className="text-muted">
          →
        </span>
        <InlineValue value={row.after} label={`${row.key} after`} missing="removed" />
      </p>
    );
  }
  return (
    <dl className="mt-1 grid grid-cols-[auto_minmax(0,1fr)] gap-x-2 gap-y-1 text-xs">
      <dt className="pt-0.5 text-muted">before</dt>
      <dd className="min-w-0">
        <TreeValue value={row.before} label={`${row.key} before`} missing="absent" />
      </dd>
      <dt className="pt-0.5 text-muted">after</dt>
      <dd className="min-w-0">
        <TreeValue value={row.after} label={`${row.key} after`} missing="removed" />
      </dd>
    </dl>
  );
}

function InlineValue({ value, label, missing }: { value: JsonValue | undefined; label: string; missing: string }) {
  if (value === undefined) return <span className="font-sans italic text-muted">({missing})</span>;
  if (value !== null && typeof value === 'object') return null;
  return (
    <span className="min-w-0 max-w-full">
      <JsonPrimitive value={value} label={label} />
    </span>
  );
}

function TreeValue({ value, label, missing }: { value: JsonValue | undefined; label: string; missing: string }) {
  if (value === undefined) return <span className="italic text-muted">({missing})</span>;
  return <JsonTree value={value} label={label} expandDepth={1} />;
}
