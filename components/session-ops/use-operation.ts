'use client';

import { useState, useTransition } from 'react';
import { callAction } from '@/lib/actions/call';
import type { ActionFailure, ActionResult } from '@/lib/commands/result';

/** One server action run from a form: pending while it runs, its refusal kept to show. */
export function useOperation<I, T>(action: (input: I) => Promise<ActionResult<T>>) {
  const [pending, startTransition] = useTransition();
  const [refusal, setRefusal] = useState<ActionFailure | null>(null);
  const run = (input: I, onDone: (data: T) => void | Promise<void>) =>
    startTransition(async () => {
      const result = await callAction(action, input);
      if (result.ok) {
        setRefusal(null);
        await onDone(result.data);
      } else {
        setRefusal(result);
      }
    });
  return { pending, refusal, run, clear: () => setRefusal(null) };
}

/** The refusal's message and its field messages, as one alert. */
export function refusalText(refusal: ActionFailure | null): string | null {
  if (!refusal) return null;
  const fields = Object.entries(refusal.fieldErrors ?? {}).map(([field, message]) => `${field}: ${message}`);
  return [refusal.message, ...fields.filter((line) => !line.endsWith(refusal.message))].join('\n');
}
