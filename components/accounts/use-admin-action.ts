'use client';

import { useState, useTransition } from 'react';
import { callAction } from '@/lib/actions/call';
import type { ActionFailure, ActionResult } from '@/lib/commands/result';

/** Runs an account action from a form: pending state, and the failure (as a value) to show beside the fields. */
export function useAdminAction<I, T>(action: (input: I) => Promise<ActionResult<T>>) {
  const [pending, startTransition] = useTransition();
  const [failure, setFailure] = useState<ActionFailure | null>(null);
  const run = (input: I, onSuccess?: (data: T) => void) =>
    startTransition(async () => {
      const result = await callAction(action, input);
      if (result.ok) {
        setFailure(null);
        onSuccess?.(result.data);
      } else {
        setFailure(result);
      }
    });
  return { pending, failure, run };
}

/** The message for one field, or for the form as a whole. */
export function errorFor(failure: ActionFailure | null, field: string): string | null {
  if (!failure) return null;
  if (failure.fieldErrors) return failure.fieldErrors[field] ?? null;
  return field === 'form' ? failure.message : null;
}
