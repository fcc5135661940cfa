import type { ComponentProps } from 'react';
import { cx } from './cx';

export type PanelTone = 'default' | 'dashed' | 'danger';

const TONES: Record<PanelTone, string> = {
  default: 'border-border shadow-sm',
  // An empty state: a place where something would be.
  dashed: 'border-dashed border-border-strong',
  danger: 'border-danger/40 shadow-sm',
};

/** A panel's classes, for elements other than a div (`<section className={panelClass()}>`, a form). */
export function panelClass({ tone = 'default', className }: { tone?: PanelTone; className?: string } = {}): string {
  return cx('rounded-lg border bg-surface', TONES[tone], className);
}

export type PanelProps = ComponentProps<'div'> & { tone?: PanelTone };

/** A box on the page's background: lists, state columns, status panels. Padding is the caller's. */
export function Panel({ tone, className, ...props }: PanelProps) {
  return <div className={panelClass({ tone, className })} {...props} />;
}
