import type { ActionFailure } from '@/lib/commands/result';
import { failureText } from './use-action';

/** A form's refusal as one alert: its message and its fields'. */
export function ActionFailureAlert({ failure }: { failure: ActionFailure | null }) {
  const text = failureText(failure);
  if (!text) return null;
  return (
    <p role="alert" className="whitespace-pre-wrap text-sm font-medium text-danger">
      {text}
    </p>
  );
}
