'use client';

import { useRouter } from 'next/navigation';
import { useId, useState } from 'react';
import { pruneSessions } from '@/lib/actions/session-ops';
import type { PruneCount } from '@/lib/session-service/operations';
import { Refusal } from './refusal';
import { button, dangerButton, input, label, panel } from './styles';
import { useOperation } from './use-operation';

/** Admin retention for an app: the sessions idle for N days, counted first, deleted with a reason. */
export function IdlePruneForm({ appName }: { appName: string }) {
  const router = useRouter();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [days, setDays] = useState('90');
  const [reason, setReason] = useState('');
  const [counted, setCounted] = useState<{ days: string; count: PruneCount } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const { pending, refusal, run } = useOperation(pruneSessions);
  if (!open) {
    return (
      <button type="button" className={button} onClick={() => setOpen(true)}>
        Delete idle sessions…
      </button>
    );
  }
  const current = counted?.days === days ? counted.count : null;
  return (
    <form className={panel} aria-label="Delete idle sessions" onSubmit={(event) => event.preventDefault()}>
      <h2 className="font-semibold">Delete idle sessions</h2>
      <p className="text-sm text-muted">
        Sessions whose last activity is older than this, with their events and session state. App and user state stay.
      </p>
      <div>
        <label htmlFor={`${id}-days`} className={label}>
          Idle for more than (days)
        </label>
        <input id={`${id}-days`} type="number" min={1} value={days} onChange={(e) => setDays(e.target.value)} className={input} />
      </div>
      <button
        type="button"
        className={button}
        disabled={pending}
        onClick={() => run({ appName, idleDays: Number(days), dryRun: true }, (count) => setCounted({ days, count }))}
      >
        Count what would be deleted
      </button>
      {current ? (
        <p role="status" data-testid="idle-count" className="text-sm">
          Would delete {current.sessions} sessions with {current.events} events.
        </p>
      ) : null}
      <div>
        <label htmlFor={`${id}-reason`} className={label}>
          Reason (kept in the history)
        </label>
        <input id={`${id}-reason`} value={reason} onChange={(e) => setReason(e.target.value)} className={input} />
      </div>
      <Refusal refusal={refusal} />
      {done ? (
        <p role="status" className="text-sm text-success">
          {done}
        </p>
      ) : null}
      <div className="flex gap-2">
        <button
          type="button"
          className={dangerButton}
          disabled={pending || !current || !reason.trim()}
          onClick={() =>
            run({ appName, idleDays: Number(days), dryRun: false, reason }, (count) => {
              setDone(`Deleted ${count.sessions} sessions with ${count.events} events.`);
              setCounted(null);
              router.refresh();
            })
          }
        >
          Delete
        </button>
        <button type="button" className={button} onClick={() => setOpen(false)}>
          Close
        </button>
      </div>
    </form>
  );
}
