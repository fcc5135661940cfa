import { StoreLink } from './store-link';
import { Fragment } from 'react';
import { appPath, APPS_PATH, sessionPath, userPath } from '@/lib/paths';

export interface Crumb {
  label: string;
  /** What kind of thing the label names ("app", "user", "session"), read out before it. */
  kind?: string;
  href: string;
}

/**
 * The trail from the apps list down to a session. Pass only the levels the
 * page is at; the last one is the current page.
 */
export function trailTo(where: { appName?: string; userId?: string; sessionId?: string } = {}): Crumb[] {
  const trail: Crumb[] = [{ label: 'Apps', href: APPS_PATH }];
  const { appName, userId, sessionId } = where;
  if (appName === undefined) return trail;
  trail.push({ label: appName, kind: 'app', href: appPath(appName) });
  if (userId === undefined) return trail;
  trail.push({ label: userId, kind: 'user', href: userPath(appName, userId) });
  if (sessionId === undefined) return trail;
  trail.push({ label: sessionId, kind: 'session', href: sessionPath(appName, userId, sessionId) });
  return trail;
}

/** Breadcrumbs: every level is a link; the last is marked as the current page. */
export function Breadcrumbs({ trail }: { trail: Crumb[] }) {
  return (
    <nav aria-label="Breadcrumb" className="mb-4 text-sm">
      <ol className="flex flex-wrap items-center gap-x-1.5 gap-y-1 text-muted">
        {trail.map((crumb, index) => {
          const current = index === trail.length - 1;
          return (
            <Fragment key={crumb.href}>
              {index > 0 ? (
                <li aria-hidden="true" className="select-none text-border-strong">
                  /
                </li>
              ) : null}
              <li className="min-w-0">
                <StoreLink
                  href={crumb.href}
                  aria-current={current ? 'page' : undefined}
                  className={
                    current
                      ? 'block max-w-[32ch] truncate font-medium text-foreground hover:underline'
                      : 'block max-w-[32ch] truncate hover:text-accent hover:underline'
                  }
                  title={crumb.kind ? `${crumb.kind} ${crumb.label}` : crumb.label}
                >
                  {crumb.kind ? <span className="sr-only">{crumb.kind} </span> : null}
                  <span className={crumb.kind ? 'font-mono' : undefined}>{crumb.label}</span>
                </StoreLink>
              </li>
            </Fragment>
          );
        })}
      </ol>
    </nav>
  );
}
