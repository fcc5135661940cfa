import type { ComponentProps } from 'react';
import { cx } from './cx';

export type CardTone = 'default' | 'dashed' | 'danger';

const TONES: Record<CardTone, string> = {
  default: 'border-border shadow-sm',
  // An empty state: a place where something would be.
  dashed: 'border-dashed border-border-strong',
  danger: 'border-danger/40 shadow-sm',
};

/** A card's classes, for elements other than a div (`<section className={cardClass()}>`, a form, a list). */
export function cardClass({ tone = 'default', className }: { tone?: CardTone; className?: string } = {}): string {
  return cx('rounded-lg border bg-surface', TONES[tone], className);
}

export type CardProps = ComponentProps<'div'> & { tone?: CardTone };

/** A panel on the page's background: lists, forms, state columns, status panels. Padding is the caller's. */
export function Card({ tone, className, ...props }: CardProps) {
  return <div className={cardClass({ tone, className })} {...props} />;
}
