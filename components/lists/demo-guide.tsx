import { StoreLink } from '@/components/nav/store-link';
import { panelClass } from '@/components/ui/panel';
import { formatCount } from '@/components/ui/format';
import type { DemoGuide } from '@/lib/data/demo-guide';
import { appPath, sessionPath } from '@/lib/paths';

/** On the demo only: where a newcomer should start, and which app is being written live. */
export function DemoGuidePanel({ guide }: { guide: DemoGuide }) {
  const { richest, liveApp } = guide;
  return (
    <section aria-labelledby="demo-guide" className={panelClass({ className: 'mb-6 space-y-1 border-accent/40 p-4 text-sm' })}>
      <h2 id="demo-guide" className="font-semibold">
        New here? This is the demo
      </h2>
      {richest ? (
        <p>
          Start with the richest session,{' '}
          <StoreLink
            href={sessionPath(richest.appName, richest.userId, richest.id)}
            className="font-mono text-accent break-all hover:underline"
          >
            {richest.id}
          </StoreLink>{' '}
          ({formatCount(richest.eventCount)} events): its timeline, time travel and compare.
        </p>
      ) : null}
      {liveApp !== null ? (
        <p>
          The example agent is writing app{' '}
          <StoreLink href={appPath(liveApp)} className="font-mono text-accent hover:underline">
            {liveApp}
          </StoreLink>{' '}
          live: a new session every 30 seconds, which the lists show as it arrives.
        </p>
      ) : null}
    </section>
  );
}
