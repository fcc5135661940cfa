import { Breadcrumbs, trailTo } from '@/components/nav/breadcrumbs';
import type { CompareQuery } from '@/lib/data/compare-params';
import { comparePath } from '@/lib/paths';
import { getCompareChoices, getComparison } from '@/lib/data/compare-page';
import { ComparePicker } from './compare-picker';
import { CompareView } from './compare-view';
import { sideLabel } from './side-label';

/** The compare page: the comparison once both sides are chosen, else the choice of the second. */
export async function ComparePage({ query, now }: { query: CompareQuery; now: number }) {
  const { left, right } = query;
  const what = left.sessionId === undefined ? 'users' : 'sessions';
  return (
    <div>
      <Breadcrumbs trail={[...trailTo(left), { label: 'Compare', href: comparePath(left, right ?? undefined) }]} />
      <header className="mb-4">
        <p className="text-xs font-medium uppercase tracking-wide text-muted">Compare {what}</p>
        <h1 className="text-2xl font-semibold tracking-tight break-all">
          {right ? `${sideLabel(left, right)} and ${sideLabel(right, left)}` : `${sideLabel(left, left)} with…`}
        </h1>
        <p className="mt-1 text-sm text-muted">
          Each tier key by key: the keys that differ first, each side&apos;s value beside the other&apos;s
          {what === 'sessions'
            ? '; then the events each session has after those they share (a fork parts from its source at the fork point)'
            : ''}
          .
        </p>
      </header>
      {right ? (
        <CompareView comparison={await getComparison(left, right)} />
      ) : (
        <ComparePicker left={left} choices={await getCompareChoices(left)} now={now} />
      )}
    </div>
  );
}
