'use client';

import { ActionOutcome } from '@/components/actions/action-outcome';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { panelClass } from '@/components/ui/panel';
import { useAction } from '@/components/actions/use-action';
import { useRouter } from 'next/navigation';
import { useId, useState } from 'react';
import { importSessions } from '@/lib/actions/session-ops';
import type { ImportReport, ImportStatus } from '@/lib/commands/import-sessions';
import { Choice } from '@/components/ui/choice';
import { Input } from '@/components/ui/input';

/** The choices a preview and the import are made with. */
interface ImportOptions {
  newIds: boolean;
  applySharedState: boolean;
}

const PANEL = panelClass({ className: 'space-y-3 p-4' });

const STATUS_TEXT = { create: 'will be created', exists: 'already exists', invalid: 'invalid' } as const;
/** What a row says: a preview's "will be created" becomes "created" once the import wrote it. */
const statusText = (status: ImportStatus, written: boolean) => (written && status === 'create' ? 'created' : STATUS_TEXT[status]);

/**
 * Imports ADK session files (one session, or JSON Lines of them) into an app,
 * or into one user: a preview of what would be created, what exists and what
 * is invalid first; then all of them or nothing.
 */
export function ImportForm({ appName, userId }: { appName: string; userId?: string }) {
  const router = useRouter();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState<string | null>(null);
  const [options, setOptions] = useState<ImportOptions>({ newIds: false, applySharedState: false });
  const [report, setReport] = useState<ImportReport | null>(null);
  const { pending, failure, run } = useAction(importSessions);
  const target = { appName, ...(userId === undefined ? {} : { userId }) };

  if (!open) {
    return <Button onClick={() => setOpen(true)}>Import sessions</Button>;
  }
  const preview = (file: string | null, chosen: ImportOptions) => {
    setReport(null);
    if (file !== null) run({ ...target, text: file, dryRun: true, ...chosen }, setReport);
  };
  const choose = (change: Partial<ImportOptions>) => {
    const chosen = { ...options, ...change };
    setOptions(chosen);
    preview(text, chosen);
  };
  return (
    <form className={PANEL} aria-label="Import sessions" onSubmit={(event) => event.preventDefault()}>
      <h2 className="font-semibold">Import sessions</h2>
      <p className="text-sm text-muted">
        An ADK session file (what <code>adk run --save_session</code> writes) or JSON Lines of them (an export of a user or an app).
        Sessions go to {userId === undefined ? 'the users the file names' : <span className="font-mono">{userId}</span>}; the{' '}
        <code>app:</code> and <code>user:</code> keys of their saved state are not written. Nothing is written until you confirm, and then
        all of them or none.
      </p>
      <div>
        <Label htmlFor={`${id}-file`}>File</Label>
        <Input
          id={`${id}-file`}
          type="file"
          accept=".json,.jsonl,application/json"
          onChange={async (event) => {
            const file = event.target.files?.[0];
            const content = file ? await file.text() : null;
            setText(content);
            preview(content, options);
          }}
        />
      </div>
      <Choice type="checkbox" checked={options.newIds} onChange={(event) => choose({ newIds: event.target.checked })}>
        Give every session a new id
      </Choice>
      <Choice type="checkbox" checked={options.applySharedState} onChange={(event) => choose({ applySharedState: event.target.checked })}>
        Apply the events’ app and user state changes (as the agent did); without this, sessions that have them are refused
      </Choice>
      <ActionOutcome failure={failure} />
      {report ? (
        <div role="status" aria-label="Import preview" className="space-y-2 text-sm">
          <p>
            {report.written ? 'Imported' : 'Would create'} {report.counts.create}; {report.counts.exists} already exist;{' '}
            {report.counts.invalid} invalid.
          </p>
          <ul className="max-h-64 space-y-1 overflow-auto font-mono text-xs">
            {report.items.map((item) => (
              <li key={item.line} className={item.status === 'create' ? '' : 'text-danger'}>
                line {item.line}: {item.userId ?? '?'}/{item.sessionId ?? '?'} ({item.events} events){' '}
                {statusText(item.status, report.written)}
                {item.problem ? ` — ${item.problem}` : ''}
                {item.status === 'create' && item.sharedChanges.length > 0 ? ` — writes ${item.sharedChanges.join(', ')}` : ''}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className="flex gap-2">
        <Button
          variant="primary"
          disabled={
            pending ||
            text === null ||
            !report ||
            report.written ||
            report.counts.create === 0 ||
            report.items.some((item) => item.status !== 'create')
          }
          onClick={() =>
            text !== null &&
            run({ ...target, text, dryRun: false, ...options }, (written) => {
              setReport(written);
              router.refresh();
            })
          }
        >
          Import {report && !report.written ? report.counts.create : ''} sessions
        </Button>
        <Button onClick={() => setOpen(false)}>Close</Button>
      </div>
    </form>
  );
}
