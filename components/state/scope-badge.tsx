import type { Scope } from '@/lib/session-service/types';

const STYLES: Record<Scope, string> = {
  app: 'border-scope-app/40 text-scope-app',
  user: 'border-scope-user/40 text-scope-user',
  session: 'border-scope-session/40 text-scope-session',
};

const TITLES: Record<Scope, string> = {
  app: 'App state: shared by every user and session of the app',
  user: 'User state: shared by every session of this user',
  session: 'Session state: this session only',
};

/** The tier a key lives in, in the tier's colour. */
export function ScopeBadge({ scope }: { scope: Scope }) {
  return (
    <span
      title={TITLES[scope]}
      className={`inline-flex shrink-0 items-center rounded border px-1 py-px font-sans text-[10px] font-semibold uppercase leading-4 tracking-wide ${STYLES[scope]}`}
    >
      {scope}
    </span>
  );
}
