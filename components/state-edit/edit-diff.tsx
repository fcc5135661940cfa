import { ValueChange } from '@/components/history/json-inline';
import type { EditChange } from '@/lib/session-service/delta-preview';

const KIND_TEXT: Record<EditChange['kind'], string> = {
  added: 'new key',
  changed: 'changed',
  removed: 'removed',
  unchanged: 'same value (recorded anyway)',
  absent: 'not there (nothing to remove)',
};

const KIND_STYLE: Record<EditChange['kind'], string> = {
  added: 'bg-success-surface text-success',
  changed: 'bg-warning-surface text-warning',
  removed: 'bg-danger-surface text-danger',
  unchanged: 'bg-surface-muted text-muted',
  absent: 'bg-surface-muted text-muted',
};

/** The diff a support edit asks the person to confirm: each key, what happens to it, old → new. */
export function EditDiff({ changes, prefix }: { changes: EditChange[]; prefix: string }) {
  return (
    <ul aria-label="Changes to confirm" className="divide-y divide-border rounded-md border border-border">
      {changes.map((change) => (
        <li key={change.key} aria-label={`${prefix}${change.key} ${change.kind}`} className="px-3 py-2 text-sm">
          <div className="flex flex-wrap items-baseline gap-2">
            <code className="text-xs font-semibold">
              {prefix}
              {change.key}
            </code>
            <span className={`rounded px-1 text-[10px] font-semibold uppercase ${KIND_STYLE[change.kind]}`}>{KIND_TEXT[change.kind]}</span>
          </div>
          <div className="mt-1">
            <ValueChange oldValue={change.oldValue} newValue={change.newValue} />
          </div>
        </li>
      ))}
    </ul>
  );
}
