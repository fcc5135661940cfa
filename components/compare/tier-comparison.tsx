import { JsonTree } from '@/components/json';
import { ScopeBadge } from '@/components/state';
import { panelClass } from '@/components/ui/panel';
import { plural } from '@/components/ui/format';
import { differenceCount, type KeyComparison } from '@/lib/session-service/compare';
import type { TierView } from '@/lib/data/compare';
import { prefixedKey } from '@/lib/session-service/scope';
import type { JsonValue } from '@/lib/session-service/types';
import { StandingBadge } from './standing-badge';

const TIER_NAMES = { app: 'App state', user: 'User state', session: 'Session state' } as const;

interface TierComparisonProps {
  tier: TierView;
  /** Column headings: what each side is. */
  leftLabel: string;
  rightLabel: string;
}

/** One tier: the keys that differ first, each side's value beside the other's; the keys alike folded below. */
export function TierComparison({ tier, leftLabel, rightLabel }: TierComparisonProps) {
  const headingId = `compare-${tier.scope}`;
  const differing = tier.rows.filter((row) => row.standing !== 'same');
  const alike = tier.rows.filter((row) => row.standing === 'same');
  const differences = differenceCount(tier.rows);
  return (
    <section aria-labelledby={headingId} className={panelClass({ className: 'space-y-2 p-4' })}>
      <h2 id={headingId} className="flex flex-wrap items-baseline gap-x-2 text-lg font-semibold">
        {TIER_NAMES[tier.scope]}
        <span className="text-sm font-normal text-muted">
          {tier.shared
            ? 'the same tier on both sides'
            : differences === 0
              ? `no differences in ${plural(tier.rows.length, 'key')}`
              : `${plural(differences, 'difference')} in ${plural(tier.rows.length, 'key')}`}
        </span>
      </h2>
      {tier.shared ? (
        <p className="text-sm text-muted">
          Both sides read this very tier ({tier.scope === 'app' ? 'one app' : 'one user'}), so nothing in it can differ
          {tier.rows.length > 0 ? `: ${plural(tier.rows.length, 'key')}` : ''}.
        </p>
      ) : tier.rows.length === 0 ? (
        <p className="text-sm text-muted">Neither side has a key in this tier.</p>
      ) : (
        <>
          {differing.length > 0 ? (
            <KeyTable rows={differing} tier={tier} leftLabel={leftLabel} rightLabel={rightLabel} caption="differing" />
          ) : null}
          {alike.length > 0 ? (
            <details className="text-sm">
              <summary className="cursor-pointer text-muted hover:text-foreground">
                {plural(alike.length, 'key')} with the same value
              </summary>
              <div className="mt-2">
                <KeyTable rows={alike} tier={tier} leftLabel={leftLabel} rightLabel={rightLabel} caption="alike" />
              </div>
            </details>
          ) : null}
        </>
      )}
    </section>
  );
}

function KeyTable({
  rows,
  tier,
  leftLabel,
  rightLabel,
  caption,
}: {
  rows: KeyComparison[];
  tier: TierView;
  leftLabel: string;
  rightLabel: string;
  caption: 'differing' | 'alike';
}) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full table-fixed text-left text-sm">
        <caption className="sr-only">{`${TIER_NAMES[tier.scope]}: keys ${caption === 'differing' ? 'that differ' : 'with the same value'}`}</caption>
        <thead className="border-b border-border text-xs uppercase tracking-wide text-muted">
          <tr>
            <th scope="col" className="w-1/4 px-2 py-1.5 font-medium">
              Key
            </th>
            <th scope="col" className="px-2 py-1.5 font-medium">
              <span className="normal-case">{leftLabel}</span>
            </th>
            <th scope="col" className="px-2 py-1.5 font-medium">
              <span className="normal-case">{rightLabel}</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-border">
          {rows.map((row) => {
            const key = prefixedKey(tier.scope, row.key);
            return (
              <tr key={row.key} data-standing={row.standing} className="align-top">
                <th scope="row" className="px-2 py-1.5 font-normal">
                  <div className="flex flex-wrap items-center gap-1">
                    <ScopeBadge scope={tier.scope} />
                    <code className="text-xs font-semibold break-all">
                      <bdi>{key}</bdi>
                    </code>
                    <StandingBadge standing={row.standing} />
                  </div>
                </th>
                <td className="min-w-0 px-2 py-1.5">
                  <Value value={row.left} label={`${key}, first`} />
                </td>
                <td className="min-w-0 px-2 py-1.5">
                  <Value value={row.right} label={`${key}, second`} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function Value({ value, label }: { value: JsonValue | undefined; label: string }) {
  if (value === undefined) return <span className="text-xs italic text-muted">(absent)</span>;
  return <JsonTree value={value} label={label} expandDepth={1} />;
}
