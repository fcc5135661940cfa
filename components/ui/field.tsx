import type { ReactNode } from 'react';
import { cx } from './cx';
import { Label } from './label';

/** The input's aria-describedby: its hint and its error, those shown. */
export function describedBy(id: string, hint: ReactNode, error: string | null | undefined): string | undefined {
  return [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
}

/**
 * The message under a form field; its id ties it to the field through
 * aria-describedby. `alert` announces it (a refusal after submitting, not a
 * check while typing).
 */
export function FieldError({ id, message, alert = false }: { id: string; message: string | null | undefined; alert?: boolean }) {
  if (!message) return null;
  return (
    <p id={id} role={alert ? 'alert' : undefined} className="mt-1 whitespace-pre-wrap break-words text-xs font-medium text-danger">
      {message}
    </p>
  );
}

interface FieldProps {
  /** The input's id; the hint and error get `<id>-hint` and `<id>-error`. */
  id: string;
  label: string;
  required?: boolean;
  hint?: ReactNode;
  error: string | null | undefined;
  /** Announce the error (a refusal after submitting, not a check while typing). */
  alert?: boolean;
  /** The label's classes over the field's own (cx merges them). */
  labelClassName?: string;
  /** The input. */
  children: ReactNode;
}

/** A form field's label and hint above its input, and its error below. */
export function Field({ id, label, required, hint, error, alert, labelClassName, children }: FieldProps) {
  return (
    <div>
      <Label htmlFor={id} className={cx('text-sm text-foreground', labelClassName)}>
        {label}
        {required ? <span className="text-danger"> *</span> : null}
      </Label>
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-muted">
          {hint}
        </p>
      ) : null}
      {children}
      <FieldError id={`${id}-error`} message={error} alert={alert} />
    </div>
  );
}
