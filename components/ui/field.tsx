import type { ReactNode } from 'react';
import { cx } from './cx';

/** The input's aria-describedby: its hint and its error, those shown. */
export function describedBy(id: string, hint: ReactNode, error: string | null | undefined): string | undefined {
  return [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
}

/** A text input's, select's or textarea's box, red when its value is refused; padding and text size are the caller's. */
export function inputClass({ invalid = false, className }: { invalid?: boolean; className?: string } = {}): string {
  return cx('rounded-md border bg-background text-foreground', invalid ? 'border-danger' : 'border-border', className);
}

/** The message under a form field; its id ties it to the field through aria-describedby. */
export function FieldError({ id, message }: { id: string; message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="mt-1 whitespace-pre-wrap break-words text-xs font-medium text-danger">
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
  /** The input. */
  children: ReactNode;
}

/** A form field's label and hint above its input, and its error below. */
export function Field({ id, label, required, hint, error, children }: FieldProps) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
        {required ? <span className="text-danger"> *</span> : null}
      </label>
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-muted">
          {hint}
        </p>
      ) : null}
      {children}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
