'use client';

import { useAction } from '@/components/actions/use-action';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useOptimistic, useRef, useState, type ComponentProps } from 'react';
import { StatusToast, type StatusMessage } from '@/components/ui/status-toast';
import { KeyHistory } from '@/components/history/key-history';
import { useRowTabIndex } from '@/components/json';
import { StateTable, type StateTableEntry, type StateTableProps } from '@/components/state';
import { editState } from '@/lib/actions/state';
import { refreshAfterEdit, type TierRef } from '@/lib/queries/state-edit';
import type { JsonValue, StateEntry } from '@/lib/session-service/types';
import { newDraft, serverErrorsOf, type EditDraft, type EditMode } from './draft';
import { EditStateDialog, prefixOf } from './edit-state-dialog';
import { Button } from '@/components/ui/button';

export interface EditableStateTableProps extends Omit<StateTableProps, 'entries' | 'headerActions' | 'rowActions' | 'rowDetails'> {
  /** The app tier, or one user's tier. */
  tier: TierRef;
  /** The tier as the page rendered it (keys without prefix). */
  entries: StateEntry[];
}

interface ShownEntry extends StateEntry {
  /** Set while an edit of this key is being saved. */
  saving?: EditMode;
}

interface PendingEdit {
  mode: EditMode;
  key: string;
  value: JsonValue | undefined;
  reason: string;
}

/** The table as it will be once the pending edit is saved; the real entries replace it when the save ends. */
function withPendingEdit(entries: ShownEntry[], edit: PendingEdit): ShownEntry[] {
  const lastChange = {
    actor: 'you',
    reason: edit.reason,
    time: Date.now() / 1000,
    sourceUserId: null,
    sourceSessionId: null,
    eventId: null,
    eventSeq: null,
  };
  const rest = entries.filter((entry) => entry.key !== edit.key);
  if (edit.mode === 'remove' || edit.value === undefined) {
    // Still listed, marked, until the save ends: a row that vanished at once could not say "removing".
    const removed = entries.find((entry) => entry.key === edit.key);
    return removed ? entries.map((entry) => (entry.key === edit.key ? { ...entry, saving: 'remove' } : entry)) : rest;
  }
  const updated: ShownEntry = { key: edit.key, value: edit.value, updateTime: lastChange.time, lastChange, saving: edit.mode };
  const index = entries.findIndex((entry) => entry.key === edit.key);
  if (index === -1) return [...entries, updated].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return entries.map((entry) => (entry.key === edit.key ? updated : entry));
}

const SAVING_TEXT: Record<EditMode, string> = { add: 'Adding…', edit: 'Saving…', remove: 'Removing…' };

/** A row's Edit, Remove or History button: in the tab order only on the list's active row. */
function RowButton(props: ComponentProps<'button'>) {
  return <Button size="xs" tabIndex={useRowTabIndex()} {...props} />;
}

/**
 * A tier's state table with support edits: add, edit and remove keys, each
 * with a required reason and a confirmed diff, shown at once (optimistic) and
 * rolled back if the server refuses, with the dialog reopened as it was typed.
 * Every key's history is one click away.
 */
export function EditableStateTable({ tier, entries, ...tableProps }: EditableStateTableProps) {
  const queryClient = useQueryClient();
  const [shown, showPendingEdit] = useOptimistic<ShownEntry[], PendingEdit>(entries, withPendingEdit);
  const [draft, setDraft] = useState<EditDraft | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [historyKey, setHistoryKey] = useState<string | null>(null);
  const [status, setStatus] = useState<StatusMessage | null>(null);
  const dismissStatus = useCallback(() => setStatus(null), []);
  const edit = useAction(editState);
  const prefix = prefixOf(tier);
  const savingOf = new Map(shown.filter((entry) => entry.saving).map((entry) => [entry.key, entry.saving]));

  // Where focus goes back to when the dialog closes: the button that opened it.
  const opener = useRef<HTMLElement | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  // The tier as the dialog was opened on: the page stays live meanwhile, but what
  // the person confirms (and the save checks) is what they saw, until a refusal
  // shows them the state as it is now.
  const [seenEntries, setSeenEntries] = useState<StateEntry[] | null>(null);
  const open = (next: EditDraft, from?: HTMLElement) => {
    opener.current = from ?? null;
    setSeenEntries(entries);
    setDraft(next);
    setDialogOpen(true);
  };
  const table = useRef<HTMLDivElement>(null);
  /** After a save: focus on the saved key's row (its Edit button, once the row is back from "Saving…"), else on Add key. */
  const focusKey = (name: string, framesLeft = 30) => {
    requestAnimationFrame(() => {
      const selector = `button[aria-label="Edit ${name.replace(/["\\]/g, '\\$&')}"]`;
      const row = table.current?.querySelector<HTMLElement>(selector);
      if (row) row.focus();
      else if (framesLeft > 0) focusKey(name, framesLeft - 1);
      else addButton.current?.focus();
    });
  };
  const returnFocus = () => {
    // After React has committed: a removed key's buttons are gone, and the Add key button stands in.
    requestAnimationFrame(() => {
      const target = opener.current?.isConnected ? opener.current : addButton.current;
      target?.focus();
    });
  };

  const confirm = (confirmed: EditDraft, value: JsonValue | undefined, seen: { present: false } | { present: true; value: JsonValue }) => {
    setDialogOpen(false);
    returnFocus();
    const name = prefix + confirmed.key;
    setStatus({ text: `Saving ${name}…`, tone: 'pending' });
    const remove = confirmed.mode === 'remove';
    const input = {
      scope: tier.scope,
      appName: tier.appName,
      userId: tier.scope === 'user' ? tier.userId : undefined,
      changes: [{ key: confirmed.key, ...(remove ? { remove: true } : { value: confirmed.valueText }), seen }],
      reason: confirmed.reason,
    };
    edit.run(input, {
      onStart: () => showPendingEdit({ mode: confirmed.mode, key: confirmed.key, value, reason: confirmed.reason.trim() }),
      onSuccess: async () => {
        // Inside the transition: the table shows the pending edit until the fresh data is there.
        await refreshAfterEdit(queryClient, tier);
        setDraft(null);
        setStatus({ text: `${remove ? 'Removed' : 'Saved'} ${name}.`, tone: 'success' });
        if (!remove) focusKey(name);
      },
      onFailure: (failure) => {
        setSeenEntries(null);
        setDraft({
          ...confirmed,
          step: failure.code === 'CONFLICT' ? 'confirm' : 'form',
          refusal: failure,
          serverErrors: serverErrorsOf(failure),
        });
        setDialogOpen(true);
        setStatus({ text: `Not saved: ${name}.`, tone: 'danger' });
      },
    });
  };

  const rowActions = (entry: StateTableEntry) => {
    const saving = savingOf.get(entry.key);
    if (saving) {
      return (
        <span role="status" className="text-[11px] font-medium text-warning">
          {SAVING_TEXT[saving]}
        </span>
      );
    }
    const current = entries.find((candidate) => candidate.key === entry.key);
    const name = prefix + entry.key;
    return (
      <span className="flex gap-1">
        <RowButton aria-label={`Edit ${name}`} onClick={(event) => open(newDraft('edit', entry.key, current?.value), event.currentTarget)}>
          Edit
        </RowButton>
        <RowButton aria-label={`Remove ${name}`} onClick={(event) => open(newDraft('remove', entry.key), event.currentTarget)}>
          Remove
        </RowButton>
        <RowButton
          aria-label={`History of ${name}`}
          aria-expanded={historyKey === entry.key}
          onClick={() => setHistoryKey(historyKey === entry.key ? null : entry.key)}
        >
          History
        </RowButton>
      </span>
    );
  };

  const rowDetails = (entry: StateTableEntry) =>
    historyKey === entry.key ? (
      <div className="mt-2 rounded-md border border-border bg-background px-2">
        <KeyHistory keyRef={{ appName: tier.appName, scope: tier.scope, userId: tier.userId, key: entry.key }} />
      </div>
    ) : null;

  return (
    // One element: the table can be a grid cell (the session page's columns).
    <div ref={table} className="flex min-w-0 flex-col">
      <StateTable
        {...tableProps}
        entries={shown}
        headerActions={
          <Button type="button" ref={addButton} onClick={(event) => open(newDraft('add'), event.currentTarget)} variant="primary" size="xs">
            Add key
          </Button>
        }
        rowActions={rowActions}
        rowDetails={rowDetails}
      />
      <StatusToast message={status} onDismiss={dismissStatus} />
      {draft ? (
        <EditStateDialog
          tier={tier}
          draft={draft}
          open={dialogOpen}
          entries={seenEntries ?? entries}
          onChange={setDraft}
          onCancel={() => {
            setDialogOpen(false);
            setDraft(null);
            returnFocus();
          }}
          onConfirm={confirm}
        />
      ) : null}
    </div>
  );
}
