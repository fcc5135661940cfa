'use client';

import { useQuery } from '@tanstack/react-query';
import { sessionCountOptions, type TierRef } from '@/lib/queries/state-edit';

function sessions(count: number): string {
  return `${count.toLocaleString('en')} ${count === 1 ? 'session' : 'sessions'}`;
}

/** How many sessions read the tier an edit changes, said before the person confirms. */
export function SessionReach({ tier }: { tier: TierRef }) {
  const count = useQuery(sessionCountOptions(tier));
  const whose = tier.scope === 'app' ? `every user of ${tier.appName}` : `user ${tier.userId ?? ''}`;
  let text: string;
  if (count.isPending) text = 'Counting the sessions that read this state…';
  else if (count.isError) text = `Could not count the sessions that read this state (${count.error.message}).`;
  else if (count.data === 0) text = `No session reads this state yet; new sessions of ${whose} will.`;
  else if (count.data === 1) text = `1 session reads this state (${whose}). It sees the change at once, and so will new sessions.`;
  else text = `${sessions(count.data)} read this state (${whose}). Each sees the change at once, and so will new sessions.`;
  return (
    <p data-testid="session-reach" className="rounded-md bg-warning-surface px-3 py-2 text-sm text-warning">
      {text}
    </p>
  );
}
