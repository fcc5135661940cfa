import type { ChangeKind } from '@/lib/session-service/state-diff';

const STYLES: Record<ChangeKind, string> = {
  added: 'bg-success-surface text-success',
  changed: 'bg-warning-surface text-warning',
  removed: 'bg-danger-surface text-danger',
  unchanged: 'bg-surface-muted text-muted',
};

const LABELS: Record<ChangeKind, string> = { added: 'added', changed: 'changed', removed: 'removed', unchanged: 'same value' };

export function ChangeKindBadge({ kind }: { kind: ChangeKind }) {
  return (
    <span className={`shrink-0 rounded px-1 py-px text-[10px] font-semibold uppercase leading-4 tracking-wide ${STYLES[kind]}`}>
      {LABELS[kind]}
    </span>
  );
}
