import { StoreLink } from '@/components/nav/store-link';
import { RelativeTime } from '@/components/lists/relative-time';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { panelClass } from '@/components/ui/panel';
import type { CompareChoice } from '@/lib/data/compare';
import { COMPARE_PATH, comparePath, type CompareSide } from '@/lib/paths';
import { sideLabel } from './side-label';

/**
 * Choosing the second side: the likeliest ones as links (a fork's source, its
 * forks, the user's other recent sessions; or the app's other users), and a
 * plain GET form for any other, so it works before any script has loaded.
 */
export function ComparePicker({ left, choices, now }: { left: CompareSide; choices: CompareChoice[]; now: number }) {
  const sessions = left.sessionId !== undefined;
  return (
    <div className="space-y-4">
      <section aria-labelledby="compare-choices" className={panelClass({ className: 'space-y-2 p-4' })}>
        <h2 id="compare-choices" className="text-lg font-semibold">
          {sessions ? 'Compare with one of these sessions' : 'Compare with one of these users'}
        </h2>
        {choices.length === 0 ? (
          <p className="text-sm text-muted">{sessions ? 'This user has no other session.' : 'This app has no other user.'}</p>
        ) : (
          <ul className="divide-y divide-border text-sm">
            {choices.map((choice) => (
              <li
                key={`${choice.side.userId}\u0000${choice.side.sessionId ?? ''}`}
                className="flex flex-wrap items-baseline gap-x-2 py-1.5"
              >
                <StoreLink href={comparePath(left, choice.side)} className="font-mono text-accent break-all hover:underline">
                  {sideLabel(choice.side, left)}
                </StoreLink>
                <span className="text-xs text-muted">
                  {choice.note}
                  {choice.time !== undefined ? (
                    <>
                      {' '}
                      <RelativeTime seconds={choice.time} now={now} />
                    </>
                  ) : null}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <form method="get" action={COMPARE_PATH} aria-labelledby="compare-other" className={panelClass({ className: 'space-y-3 p-4' })}>
        <h2 id="compare-other" className="text-lg font-semibold">
          {sessions ? 'Or name any session' : 'Or name any user'}
        </h2>
        <input type="hidden" name="app" value={left.appName} />
        <input type="hidden" name="user" value={left.userId} />
        {sessions ? <input type="hidden" name="session" value={left.sessionId} /> : null}
        <div className="grid gap-3 sm:grid-cols-3">
          <div>
            <Label htmlFor="compare-app2">App</Label>
            <Input id="compare-app2" name="app2" defaultValue={left.appName} required className="w-full font-mono" />
          </div>
          <div>
            <Label htmlFor="compare-user2">User</Label>
            <Input id="compare-user2" name="user2" defaultValue={left.userId} required className="w-full font-mono" />
          </div>
          {sessions ? (
            <div>
              <Label htmlFor="compare-session2">Session</Label>
              <Input id="compare-session2" name="session2" required className="w-full font-mono" />
            </div>
          ) : null}
        </div>
        <Button type="submit" variant="primary">
          Compare
        </Button>
      </form>
    </div>
  );
}
