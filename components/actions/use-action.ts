'use client';

import { useState, useTransition } from 'react';
import { callAction } from '@/lib/actions/call';
import type { ActionFailure, ActionResult } from '@/lib/commands/result';

export interface RunHandlers<T> {
  /** Inside the run's transition, before the call: where useOptimistic's update goes. */
  onStart?: () => void;
  /** Inside the transition too: what it awaits stays pending. */
  onSuccess?: (data: T) => void | Promise<void>;
  onFailure?: (failure: ActionFailure) => void;
}

/**
 * Every form's way of calling a server action: pending while it runs, the
 * last result's data, and its refusal (a value, with messages by field) to
 * show beside the fields. A request that never got an answer is a refusal too.
 */
export function useAction<I, T>(action: (input: I) => Promise<ActionResult<T>>) {
  const [pending, startTransition] = useTransition();
  const [failure, setFailure] = useState<ActionFailure | null>(null);
  const [data, setData] = useState<T | null>(null);
  /** Runs the action; `then` is what to do with its data, or handlers for the run's start (an optimistic update), success and refusal. */
  const run = (input: I, then: ((data: T) => void | Promise<void>) | RunHandlers<T> = {}) => {
    const handlers = typeof then === 'function' ? { onSuccess: then } : then;
    startTransition(async () => {
      handlers.onStart?.();
      const result = await callAction(action, input);
      if (result.ok) {
        setFailure(null);
        setData(result.data);
        await handlers.onSuccess?.(result.data);
      } else {
        setFailure(result);
        handlers.onFailure?.(result);
      }
    });
  };
  const reset = () => {
    setFailure(null);
    setData(null);
  };
  return { pending, failure, data, run, reset, fieldError: (field: string) => fieldError(failure, field) };
}

/** The message for one field; `form` is the refusal's own message when it names no field. */
export function fieldError(failure: ActionFailure | null, field: string): string | null {
  if (!failure) return null;
  if (failure.fieldErrors) return failure.fieldErrors[field] ?? null;
  return field === 'form' ? failure.message : null;
}

/** The refusal's message and its field messages, as one text. */
export function failureText(failure: ActionFailure | null): string | null {
  if (!failure) return null;
  const fields = Object.entries(failure.fieldErrors ?? {}).map(([field, message]) => `${field}: ${message}`);
  return [failure.message, ...fields.filter((line) => !line.endsWith(failure.message))].join('\n');
}
