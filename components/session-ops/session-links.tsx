import { StoreLink } from '@/components/nav/store-link';
import { comparePath, sessionPath } from '@/lib/paths';
import type { SessionMeta } from '@/lib/session-service/operations';
import type { SessionRef } from '@/lib/session-service/store';

/** The session's title and labels, and where it was forked from and into; text only, for every role. */
export function SessionLinks({ session, meta }: { session: SessionRef; meta: SessionMeta }) {
  const to = (sessionId: string) => sessionPath(session.appName, session.userId, sessionId);
  const compareWith = (sessionId: string) => comparePath(session, { ...session, sessionId });
  return (
    <div className="mt-2 space-y-1 text-sm" data-testid="session-meta">
      {meta.title ? <p className="text-lg font-medium">{meta.title}</p> : null}
      {meta.labels.length > 0 ? (
        <ul aria-label="Labels" className="flex flex-wrap gap-1">
          {meta.labels.map((label) => (
            <li key={label} className="rounded-full border border-border px-2 py-0.5 font-mono text-xs">
              {label}
            </li>
          ))}
        </ul>
      ) : null}
      {meta.forkedFrom ? (
        <p className="text-muted">
          Forked from{' '}
          <StoreLink href={to(meta.forkedFrom.sessionId)} className="font-mono text-accent hover:underline">
            {meta.forkedFrom.sessionId}
          </StoreLink>{' '}
          at #{meta.forkedFrom.atSeq} (
          <StoreLink
            href={compareWith(meta.forkedFrom.sessionId)}
            aria-label={`Compare with ${meta.forkedFrom.sessionId}`}
            className="text-accent hover:underline"
          >
            compare
          </StoreLink>
          )
        </p>
      ) : null}
      {meta.forks.length > 0 ? (
        <p className="text-muted">
          Forks:{' '}
          {meta.forks.map((fork, index) => (
            <span key={fork.sessionId}>
              {index > 0 ? ', ' : null}
              <StoreLink href={to(fork.sessionId)} className="font-mono text-accent hover:underline">
                {fork.sessionId}
              </StoreLink>{' '}
              (at #{fork.atSeq},{' '}
              <StoreLink
                href={compareWith(fork.sessionId)}
                aria-label={`Compare with ${fork.sessionId}`}
                className="text-accent hover:underline"
              >
                compare
              </StoreLink>
              )
            </span>
          ))}
        </p>
      ) : null}
    </div>
  );
}
