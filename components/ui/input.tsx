import type { ComponentProps } from 'react';
import { cx } from './cx';

/**
 * A text input's, select's or textarea's box, red when its value is refused.
 * Sized like the console's forms (small text, tight padding); a caller's
 * padding or text size replaces these (cx merges them).
 */
export function inputClass({ invalid = false, className }: { invalid?: boolean; className?: string } = {}): string {
  return cx('rounded-md border bg-background px-2 py-1 text-sm text-foreground', invalid ? 'border-danger' : 'border-border', className);
}

type Invalid = { invalid?: boolean };

/** Every text, number and date input of the console; `invalid` marks it (and tells assistive technology). */
export function Input({ invalid, className, ...props }: ComponentProps<'input'> & Invalid) {
  return <input aria-invalid={invalid || undefined} className={inputClass({ invalid, className })} {...props} />;
}

export function Textarea({ invalid, className, ...props }: ComponentProps<'textarea'> & Invalid) {
  return <textarea aria-invalid={invalid || undefined} className={inputClass({ invalid, className })} {...props} />;
}

export function Select({ invalid, className, ...props }: ComponentProps<'select'> & Invalid) {
  return <select aria-invalid={invalid || undefined} className={inputClass({ invalid, className })} {...props} />;
}
