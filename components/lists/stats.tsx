import type { ReactNode } from 'react';

/** The few numbers at the top of an app or user page. */
export function Stats({ items }: { items: { label: string; value: ReactNode }[] }) {
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
