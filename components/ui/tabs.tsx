import type { ReactNode } from 'react';
import { cx } from './cx';

interface TabsProps<T extends string> {
  /** The tab list's accessible name. */
  label: string;
  tabs: readonly { value: T; label: ReactNode }[];
  value: T;
  onChange: (value: T) => void;
  className?: string;
}

/** Tabs over a line: the chosen one underlined in the accent colour. The panel below is the caller's. */
export function Tabs<T extends string>({ label, tabs, value, onChange, className }: TabsProps<T>) {
  return (
    <div role="tablist" aria-label={label} className={cx('flex gap-1 border-b border-border', className)}>
      {tabs.map((tab) => (
        <button
          key={tab.value}
          type="button"
          role="tab"
          aria-selected={tab.value === value}
          onClick={() => onChange(tab.value)}
          className={cx(
            '-mb-px border-b-2 px-3 py-1.5 text-sm font-medium',
            tab.value === value ? 'border-accent text-accent' : 'border-transparent text-muted hover:text-foreground',
          )}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}
