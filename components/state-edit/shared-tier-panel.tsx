import { UnreadablePanel } from '@/components/page-status/unreadable-panel';
import type { TierRef } from '@/lib/queries/state-edit';
import type { StateEntry } from '@/lib/session-service/types';
import { TierStateTable } from './tier-state-table';

/** What each shared tier's page says about it. */
function wordsOf(tier: TierRef) {
  if (tier.scope === 'app') {
    return {
      title: 'App state',
      description: `Shared by every user and session of ${tier.appName}, as app:<key>.`,
      emptyText: 'No app state: no agent has written an app: key yet.',
    };
  }
  return {
    title: 'User state',
    description: `Shared by every session of ${tier.userId ?? ''} in ${tier.appName}, as user:<key>.`,
    emptyText: 'No user state: no agent has written a user: key for this user yet.',
  };
}

/** The app's or a user's state on its own page: the table, or why the tier cannot be read. */
export function SharedTierPanel({ tier, entries, unreadable }: { tier: TierRef; entries: StateEntry[]; unreadable: string | null }) {
  const words = wordsOf(tier);
  return (
    <div className="mb-8">
      {unreadable === null ? (
        <TierStateTable headingLevel={2} tier={tier} appName={tier.appName} entries={entries} maxHeight="24rem" {...words} />
      ) : (
        <UnreadablePanel headingLevel={2} title={`${words.title} cannot be read`} detail={unreadable} />
      )}
    </div>
  );
}
