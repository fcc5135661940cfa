import type { ComponentProps } from 'react';
import { cx } from './cx';

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'link' | 'ghost' | 'chip' | 'inline' | 'plain';
export type ButtonSize = '2xs' | 'xs' | 'sm' | 'md';

const VARIANTS: Record<ButtonVariant, string> = {
  primary: 'rounded-md bg-accent font-medium text-accent-foreground hover:bg-accent-hover',
  secondary: 'rounded-md border border-border bg-surface font-medium text-foreground hover:bg-surface-muted',
  // Confirms what cannot be undone (a removal).
  danger: 'rounded-md bg-danger font-medium text-accent-foreground hover:opacity-90',
  link: 'font-medium text-accent hover:text-accent-hover hover:underline',
  // A quiet action beside content (Close, Retry, a filter chip): muted until hovered.
  ghost: 'rounded-md font-medium text-muted hover:bg-surface-muted hover:text-foreground',
  // A value in a row that narrows the list to itself when clicked (an author, a key); its colour is the caller's.
  chip: 'rounded px-1 hover:bg-surface-muted hover:text-accent',
  // A small control inside running text or a value ("Load 2,000 chars", "+300 chars").
  inline: 'rounded bg-surface-muted font-sans font-medium text-accent hover:text-accent-hover',
  // No look of its own: a clickable region whose layout is the caller's (a tree node's toggle, the search opener).
  plain: '',
};

const SIZES: Record<ButtonSize, string> = {
  '2xs': 'px-1.5 py-0.5 text-[11px]',
  xs: 'px-2 py-0.5 text-xs',
  sm: 'px-3 py-1.5 text-sm',
  md: 'px-4 py-2 text-sm',
};

// These take their size from the text around them.
const UNSIZED = new Set<ButtonVariant>(['link', 'chip', 'plain']);

const DISABLED = 'disabled:cursor-not-allowed disabled:opacity-50 aria-disabled:pointer-events-none aria-disabled:opacity-50';

export interface ButtonStyle {
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
}

/** A button's classes, for the links that look like one (`<Link className={buttonClass(...)}>`). */
export function buttonClass({ variant = 'secondary', size = 'sm', className }: ButtonStyle = {}): string {
  return cx(VARIANTS[variant], UNSIZED.has(variant) ? null : SIZES[size], DISABLED, className);
}

export type ButtonProps = ComponentProps<'button'> & ButtonStyle;

/** Every button of the console: `type="button"` unless told otherwise, so none submits a form by accident. */
export function Button({ variant, size, className, type = 'button', ...props }: ButtonProps) {
  return <button type={type} className={buttonClass({ variant, size, className })} {...props} />;
}
