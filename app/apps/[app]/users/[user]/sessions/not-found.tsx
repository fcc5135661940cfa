import { UserSessionsLink } from '@/components/session/user-sessions-link';

/**
 * An unknown session id. The session layout calls notFound() before anything
 * streams (so the answer is a real 404), and a layout's notFound() is caught
 * by the segment above it: here. The user layout has already checked the app and user.
 */
export default function SessionNotFound() {
  return (
    <div className="mx-auto max-w-xl rounded-lg border border-border bg-surface px-6 py-10 text-center shadow-sm">
      <p className="font-mono text-sm text-muted">404</p>
      <h1 className="mt-1 text-xl font-semibold">Session not found</h1>
      <p className="mt-2 text-sm text-muted">
        This user has no session with that id. It may have been deleted (its events go with it; app and user state stay),
        or the link may be mistyped.
      </p>
      <UserSessionsLink
        className="mt-6 inline-block rounded-md bg-accent px-4 py-2 text-sm font-medium text-accent-foreground hover:bg-accent-hover"
      >
        Back to the user’s sessions
      </UserSessionsLink>
    </div>
  );
}
