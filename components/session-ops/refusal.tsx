import type { ActionFailure } from '@/lib/commands/result';
import { refusalText } from './use-operation';

export function Refusal({ refusal }: { refusal: ActionFailure | null }) {
  const text = refusalText(refusal);
  if (!text) return null;
  return (
    <p role="alert" className="whitespace-pre-wrap text-sm font-medium text-danger">
      {text}
    </p>
  );
}
