import { signOut } from '@/lib/actions/auth';
import { currentPrincipal } from '@/lib/auth/server';

/** The signed-in account and a way out; nothing in local mode, where nobody signs in. */
export async function AccountMenu() {
  const principal = await currentPrincipal();
  if (!principal || principal.via === 'local') return null;
  return (
    <div className="flex items-center gap-2 text-sm">
      <span className="text-muted">
        <span className="font-medium text-foreground">{principal.name}</span> · {principal.role}
      </span>
      {principal.via === 'session' ? (
        <form action={signOut}>
          <button type="submit" className="font-medium text-accent hover:text-accent-hover">
            Sign out
          </button>
        </form>
      ) : null}
    </div>
  );
}
