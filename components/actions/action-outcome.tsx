import type { ActionFailure } from '@/lib/commands/result';
import { failureText } from './use-action';

/** What a form's last run came to: its refusal as one alert (message and fields'), or what it did, as a status. */
export function ActionOutcome({ failure, done = null }: { failure: ActionFailure | null; done?: string | null }) {
  const text = failureText(failure);
  return (
    <>
      {text ? (
        <p role="alert" className="whitespace-pre-wrap text-sm font-medium text-danger">
          {text}
        </p>
      ) : null}
      {done ? (
        <p role="status" className="text-sm text-success">
          {done}
        </p>
      ) : null}
    </>
  );
}
