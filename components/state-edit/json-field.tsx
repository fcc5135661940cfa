'use client';

import { useDeferredValue, useId } from 'react';
import { Button } from '@/components/ui/button';
import { describedBy, Field } from '@/components/ui/field';
import { Textarea } from '@/components/ui/input';
import { looksLikeText } from './text-value';

interface JsonFieldProps {
  label: string;
  value: string;
  onChange: (text: string) => void;
  /** Why the text is not acceptable, or null; run on every change, so the person sees it while typing. */
  validate: (text: string) => string | null;
  /** An error from the server for this field, shown instead of the live one (the parent clears it on change). */
  serverError?: string | null;
  hint?: string;
  rows?: number;
  placeholder?: string;
  name?: string;
  /** Offer to quote text that is not JSON (`enterprise` → `"enterprise"`), as people often mean a string. */
  offerText?: boolean;
}

/** A JSON text editor with live validation: malformed JSON says where (line, column), wrong shapes say what. */
export function JsonField({
  label,
  value,
  onChange,
  validate,
  serverError,
  hint,
  rows = 6,
  placeholder,
  name,
  offerText = false,
}: JsonFieldProps) {
  const id = useId();
  // Large values (up to 2 MiB) are parsed at most once per frame, not once per keystroke.
  const deferred = useDeferredValue(value);
  const liveError = validate(deferred);
  const error = serverError ?? liveError;
  const quoted = offerText && liveError !== null && looksLikeText(deferred) ? JSON.stringify(deferred.trim()) : null;
  return (
    <Field id={id} label={label} hint={hint} error={error}>
      <Textarea
        id={id}
        name={name}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        rows={rows}
        spellCheck={false}
        autoCapitalize="off"
        autoCorrect="off"
        placeholder={placeholder}
        aria-describedby={describedBy(id, hint, error)}
        invalid={Boolean(error)}
        className="mt-1 block w-full px-2 py-1.5 font-mono text-xs leading-5"
      />
      {quoted ? (
        <p className="mt-1 flex flex-wrap items-center gap-2 text-xs">
          <span>Meant as text?</span>
          <Button size="xs" onClick={() => onChange(quoted)}>
            Use as a string: <code>{quoted.length > 60 ? `${quoted.slice(0, 57)}…"` : quoted}</code>
          </Button>
        </p>
      ) : null}
    </Field>
  );
}
