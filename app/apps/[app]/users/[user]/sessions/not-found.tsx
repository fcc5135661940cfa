import { NotFoundPanel } from '@/components/page-status/not-found-panel';
import { buttonClass } from '@/components/ui/button';
import { UserSessionsLink } from '@/components/session/user-sessions-link';

/**
 * An unknown session id. The session layout calls notFound() before anything
 * streams (so the answer is a real 404), and a layout's notFound() is caught
 * by the segment above it: here. The user layout has already checked the app and user.
 */
export default function SessionNotFound() {
  return (
    <NotFoundPanel
      title="Session not found"
      action={
        <UserSessionsLink className={buttonClass({ variant: 'primary', size: 'md', className: 'inline-block' })}>
          Back to the user’s sessions
        </UserSessionsLink>
      }
    >
      This user has no session with that id. It may have been deleted (its events go with it; app and user state stay), or the link may be
      mistyped.
    </NotFoundPanel>
  );
}
