'use client';

import { useQuery } from '@tanstack/react-query';
import { JsonInline, ValueChange } from '@/components/history/json-inline';
import { ScopeBadge } from '@/components/state';
import { sessionCountOptions } from '@/lib/queries/state-edit';
import type { DeltaChange } from '@/lib/session-service/delta-preview';
import { prefixedKey } from '@/lib/session-service/scope';
import type { SessionRef } from '@/lib/session-service/store';

type Group = DeltaChange['scope'];

const ORDER: Group[] = ['session', 'user', 'app', 'temp'];

const KIND_TEXT: Record<DeltaChange['kind'], string> = {
  added: 'new',
  changed: 'changed',
  unchanged: 'same value',
  temp: 'this invocation only',
};

const KIND_STYLE: Record<DeltaChange['kind'], string> = {
  added: 'bg-success-surface text-success',
  changed: 'bg-warning-surface text-warning',
  unchanged: 'bg-surface-muted text-muted',
  temp: 'bg-surface-muted text-muted',
};

function others(count: number): string {
  return count === 1 ? '1 other session' : `${count.toLocaleString('en')} other sessions`;
}

/** Says who else sees a shared tier change: the sessions of this user, or of the whole app, besides this one. */
function SharedNote({ session, scope }: { session: SessionRef; scope: 'user' | 'app' }) {
  const tier = scope === 'user' ? { scope, appName: session.appName, userId: session.userId } : { scope, appName: session.appName };
  const count = useQuery(sessionCountOptions(tier));
  const whose = scope === 'user' ? `user ${session.userId}` : `app ${session.appName}`;
  let reach: string;
  if (count.isPending) reach = 'counting the sessions that read it…';
  else if (count.isError) reach = 'the sessions that read it could not be counted.';
  else if (count.data <= 1) reach = 'no other session reads it yet; new sessions will.';
  else reach = `this changes what ${others(count.data - 1)} read too, at once.`;
  return (
    <p className="text-xs font-medium text-warning">
      Shared by every session of {whose}: {reach}
    </p>
  );
}

const HEADINGS: Record<Group, string> = {
  session: 'Session state',
  user: 'User state',
  app: 'App state',
  temp: 'temp: keys',
};

/**
 * What the delta will do, tier by tier, before it is appended: each key
 * new / changed / the same, old → new; temp: keys applied to this invocation
 * only; shared tiers called out with how many other sessions read them.
 */
export function DeltaPreview({ session, changes }: { session: SessionRef; changes: DeltaChange[] }) {
  if (changes.length === 0) return <p className="text-xs text-muted">The event changes no state.</p>;
  const groups = ORDER.map((group) => ({ group, items: changes.filter((change) => change.scope === group) })).filter(
    ({ items }) => items.length > 0,
  );
  return (
    <div aria-label="What this delta will do" role="region" className="space-y-3">
      {groups.map(({ group, items }) => (
        <section key={group} aria-label={`${HEADINGS[group]} changes`} className="rounded-md border border-border px-3 py-2">
          <h4 className="flex items-center gap-2 text-xs font-semibold uppercase tracking-wide text-muted">
            {group === 'temp' ? null : <ScopeBadge scope={group} />}
            {HEADINGS[group]}
          </h4>
          {group === 'user' || group === 'app' ? <SharedNote session={session} scope={group} /> : null}
          {group === 'temp' ? (
            <p className="text-xs text-muted">
              Applied to this invocation only, never stored: the stored event and the state leave them out.
            </p>
          ) : null}
          <ul className="mt-1 divide-y divide-border">
            {items.map((change) => (
              <li key={change.prefixedKey} aria-label={`${change.prefixedKey} ${KIND_TEXT[change.kind]}`} className="py-1.5 text-sm">
                <div className="flex flex-wrap items-baseline gap-2">
                  <code className="text-xs font-semibold">{change.prefixedKey}</code>
                  <span className={`rounded px-1 text-[10px] font-semibold uppercase ${KIND_STYLE[change.kind]}`}>
                    {KIND_TEXT[change.kind]}
                  </span>
                  {change.kind === 'temp' ? (
                    <JsonInline value={change.newValue} />
                  ) : (
                    <ValueChange oldValue={change.oldValue} newValue={change.newValue} />
                  )}
                </div>
                {change.storesNull ? (
                  <p className="text-xs text-muted">Stores null: a delta cannot remove a key (only a support edit can).</p>
                ) : null}
                {change.sameNameIn.length > 0 ? (
                  <p className="text-xs text-muted">
                    A different key from {change.sameNameIn.map((scope) => prefixedKey(scope, change.key)).join(' and ')}, which{' '}
                    {change.sameNameIn.length === 1 ? 'stays' : 'stay'} as {change.sameNameIn.length === 1 ? 'it is' : 'they are'}: tiers
                    never fall back to each other.
                  </p>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
