import { StoreLink } from '@/components/nav/store-link';
import { plural } from '@/components/ui/format';
import { Timestamp } from '@/components/state';
import { panelClass } from '@/components/ui/panel';
import type { Comparison, SideView } from '@/lib/data/compare';
import { comparePath, sessionPath, userPath } from '@/lib/paths';
import { EventsComparison } from './events-comparison';
import { sideLabel } from './side-label';
import { TierComparison } from './tier-comparison';

/** Two sessions (or users) side by side: who they are, each tier's keys, and where their events part. */
export function CompareView({ comparison }: { comparison: Comparison }) {
  const { left, right } = comparison;
  const leftLabel = sideLabel(left.side, right.side);
  const rightLabel = sideLabel(right.side, left.side);
  const missing = [left, right].filter((view) => !exists(view));
  return (
    <div className="space-y-4">
      <div className="grid gap-3 md:grid-cols-2">
        <SideCard view={left} ordinal="First" label={leftLabel} />
        <SideCard view={right} ordinal="Second" label={rightLabel} />
      </div>
      <p className="text-sm">
        <StoreLink href={comparePath(right.side, left.side)} className="text-accent hover:underline">
          Swap sides
        </StoreLink>
      </p>
      {missing.length > 0 ? (
        <p role="alert" className={panelClass({ tone: 'danger', className: 'p-4 text-sm text-danger' })}>
          {missing.map((view) => `There is no ${sideLabel(view.side, view.side)}.`).join(' ')} Choose another to compare.
        </p>
      ) : (
        <>
          {comparison.tiers.map((tier) => (
            <TierComparison key={tier.scope} tier={tier} leftLabel={leftLabel} rightLabel={rightLabel} />
          ))}
          {comparison.events ? (
            <EventsComparison
              events={comparison.events}
              left={left.side}
              right={right.side}
              leftLabel={leftLabel}
              rightLabel={rightLabel}
            />
          ) : null}
        </>
      )}
    </div>
  );
}

const exists = (view: SideView) => view.summary !== null || view.sessionCount !== undefined;

function SideCard({ view, ordinal, label }: { view: SideView; ordinal: string; label: string }) {
  const { side, summary } = view;
  const href = side.sessionId === undefined ? userPath(side.appName, side.userId) : sessionPath(side.appName, side.userId, side.sessionId);
  return (
    <div className={panelClass({ className: 'min-w-0 p-3 text-sm' })}>
      <p className="text-xs font-medium uppercase tracking-wide text-muted">{ordinal}</p>
      <p className="font-mono font-medium break-all">
        <StoreLink href={href} className="text-accent hover:underline">
          {label}
        </StoreLink>
      </p>
      {summary ? (
        <p className="text-muted">
          {summary.title ? <span className="text-foreground">{summary.title} · </span> : null}
          {plural(summary.eventCount, 'event')} · last activity <Timestamp seconds={summary.lastUpdateTime} />
        </p>
      ) : view.sessionCount !== undefined ? (
        <p className="text-muted">{plural(view.sessionCount, 'session')}</p>
      ) : (
        <p className="text-danger">Not found.</p>
      )}
      <p className="text-xs text-muted">
        app <span className="font-mono break-all">{side.appName}</span>
        {side.sessionId !== undefined ? (
          <>
            {' '}
            · user <span className="font-mono break-all">{side.userId}</span>
          </>
        ) : null}
      </p>
    </div>
  );
}
