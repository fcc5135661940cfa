import { Timestamp } from '@/components/state';
import type { OperationRecord } from '@/lib/session-service/operations';

const KIND_TEXT: Record<OperationRecord['kind'], string> = {
  fork: 'forked',
  import: 'imported',
  meta: 'title and labels set',
  prune: 'events deleted',
  mark: 'marked as a test namespace',
  clear: 'test data cleared',
};

function describe(record: OperationRecord): string {
  const detail = record.detail;
  if (record.kind === 'fork') return `forked from ${String(detail.fromSessionId)} at #${String(detail.atSeq)}`;
  if (record.kind === 'prune') return `deleted ${String(detail.events)} event(s) (${String(detail.target)})`;
  if (record.kind === 'import') return `imported with ${String(detail.events)} event(s)`;
  return KIND_TEXT[record.kind];
}

/** Who forked, imported, titled or pruned this session, and why: newest first. */
export function OperationsHistory({ operations }: { operations: OperationRecord[] }) {
  if (operations.length === 0) return null;
  return (
    <details className="mt-2 text-sm">
      <summary className="cursor-pointer text-muted">Operations history ({operations.length})</summary>
      <ul className="mt-1 space-y-0.5" aria-label="Operations history">
        {operations.map((record) => (
          <li key={record.id}>
            <Timestamp seconds={record.time} className="text-muted" /> {describe(record)} by{' '}
            <span className="font-medium">{record.actor}</span>
            {record.reason ? ` — “${record.reason}”` : ''}
          </li>
        ))}
      </ul>
    </details>
  );
}
