import { RelativeTime } from './relative-time';

interface OwnerStatsProps {
  /** The app's or the user's summary: its sessions, and its last activity in seconds (null: none). */
  of: { sessionCount: number; lastUpdateTime: number | null };
  /** The page's own figure between the two (the app's users, the user's state keys). */
  figure: { label: string; count: number };
  now: number;
}

/** The few numbers at the top of an app or user page: sessions, its own figure, last activity. */
export function Stats({ of: { sessionCount, lastUpdateTime }, figure, now }: OwnerStatsProps) {
  const items = [
    { label: 'Sessions', value: sessionCount.toLocaleString('en') },
    { label: figure.label, value: figure.count.toLocaleString('en') },
    { label: 'Last activity', value: lastUpdateTime === null ? '—' : <RelativeTime seconds={lastUpdateTime} now={now} withAbsolute /> },
  ];
  return (
    <dl className="mt-3 flex flex-wrap gap-x-8 gap-y-2 text-sm">
      {items.map((item) => (
        <div key={item.label} className="flex flex-col">
          <dt className="text-xs uppercase tracking-wide text-muted">{item.label}</dt>
          <dd className="font-medium tabular-nums">{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}
