import type { ReactNode } from 'react';
import { cx } from './cx';

export interface SegmentOption<T extends string> {
  value: T;
  label: ReactNode;
  /** A tooltip saying more than the label. */
  title?: string;
}

interface SegmentedProps<T extends string> {
  /** The group's accessible name ("Time range"). */
  label: string;
  options: readonly SegmentOption<T>[];
  value: T;
  onChange: (value: T) => void;
  /**
   * `radio`: one setting of several (a radiogroup, each option `aria-checked`);
   * `pressed`: toggle buttons that narrow what is shown (a group, each `aria-pressed`).
   */
  kind?: 'radio' | 'pressed';
  className?: string;
}

/** A row of joined buttons of which one is chosen. */
export function Segmented<T extends string>({ label, options, value, onChange, kind = 'radio', className }: SegmentedProps<T>) {
  return (
    <div
      role={kind === 'radio' ? 'radiogroup' : 'group'}
      aria-label={label}
      className={cx('flex overflow-hidden rounded-md border border-border text-xs', className)}
    >
      {options.map((option) => {
        const chosen = option.value === value;
        return (
          <button
            key={option.value}
            type="button"
            role={kind === 'radio' ? 'radio' : undefined}
            aria-checked={kind === 'radio' ? chosen : undefined}
            aria-pressed={kind === 'pressed' ? chosen : undefined}
            title={option.title}
            onClick={() => onChange(option.value)}
            className={cx('px-2 py-1 font-medium', chosen ? 'bg-accent text-accent-foreground' : 'hover:bg-surface-muted')}
          >
            {option.label}
          </button>
        );
      })}
    </div>
  );
}
