import type { ReactNode } from 'react';
import { FieldError } from './field-error';

/** The input's aria-describedby: its hint and its error, those shown. */
export function describedBy(id: string, hint: ReactNode, error: string | null | undefined): string | undefined {
  return [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
}

interface FieldFrameProps {
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
export function FieldFrame({ id, label, required, hint, error, children }: FieldFrameProps) {
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
