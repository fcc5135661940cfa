'use client';

import { useId, type ReactNode } from 'react';
import { describedBy, Field } from '@/components/ui/field';
import { cx } from '@/components/ui/cx';
import { Input, Textarea } from '@/components/ui/input';

interface TextFieldProps {
  label: string;
  value: string;
  onChange: (text: string) => void;
  error?: string | null;
  hint?: ReactNode;
  /** Text shown inside the field before the input, e.g. the `user:` of a key. */
  prefix?: string;
  multiline?: boolean;
  required?: boolean;
  placeholder?: string;
  name?: string;
  mono?: boolean;
  /** Shown after the input, e.g. a "New id" button. */
  after?: ReactNode;
}

/** A labelled one-line (or multi-line) text input with its error and hint. */
export function TextField(props: TextFieldProps) {
  const { label, value, onChange, error, hint, prefix, multiline, required, placeholder, name, mono, after } = props;
  const id = useId();
  const common = {
    id,
    name,
    value,
    required,
    placeholder,
    invalid: Boolean(error),
    'aria-describedby': describedBy(id, hint, error),
    spellCheck: mono ? false : undefined,
    // The box is the wrapper's (it holds the prefix too): the control itself draws none.
    className: cx('block w-full min-w-0 rounded-none border-0 bg-transparent px-2 py-1.5 outline-none', mono && 'font-mono text-xs'),
  };
  return (
    <Field id={id} label={label} required={required} hint={hint} error={error}>
      <div className="mt-1 flex items-stretch gap-2">
        <div
          className={`flex min-w-0 flex-1 items-stretch rounded-md border bg-background focus-within:outline-2 focus-within:outline-accent ${
            error ? 'border-danger' : 'border-border'
          }`}
        >
          {prefix ? (
            <span className="flex items-center border-r border-border pl-2 pr-1 font-mono text-xs text-muted">{prefix}</span>
          ) : null}
          {multiline ? (
            <Textarea rows={2} onChange={(event) => onChange(event.target.value)} {...common} />
          ) : (
            <Input type="text" onChange={(event) => onChange(event.target.value)} autoComplete="off" {...common} />
          )}
        </div>
        {after}
      </div>
    </Field>
  );
}
