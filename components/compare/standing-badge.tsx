import type { KeyStanding } from '@/lib/session-service/compare';

const STYLES: Record<KeyStanding, string> = {
  same: 'bg-surface-muted text-muted',
  changed: 'bg-warning-surface text-warning',
  'left-only': 'bg-danger-surface text-danger',
  'right-only': 'bg-success-surface text-success',
};

const LABELS: Record<KeyStanding, string> = {
  same: 'same',
  changed: 'differs',
  'left-only': 'first only',
  'right-only': 'second only',
};

/** How a key stands between the two sides, in words (colour only repeats them). */
export function StandingBadge({ standing }: { standing: KeyStanding }) {
  return (
    <span className={`shrink-0 rounded px-1 py-px text-[10px] font-semibold uppercase leading-4 tracking-wide ${STYLES[standing]}`}>
      {LABELS[standing]}
    </span>
  );
}
