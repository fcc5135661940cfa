import Link from 'next/link';
import { signOut } from '@/lib/actions/auth';
import { currentPrincipal } from '@/lib/current-principal';
import { hasRole } from '@/lib/auth/roles';
import { ACCOUNTS_PATH } from '@/lib/paths';
import { Button } from '@/components/ui/button';

/** Accounts (for admins), the signed-in account and a way out; local mode has nobody to sign out. */
export async function AccountMenu() {
  const principal = await currentPrincipal();
  if (!principal) return null;
  const accounts = hasRole(principal.role, 'admin') ? (
    <Link href={ACCOUNTS_PATH} className="font-medium text-muted hover:text-foreground">
      Accounts
    </Link>
  ) : null;
  if (principal.via === 'local') return accounts;
  return (
    <>
      {accounts}
      <div className="flex items-center gap-2 text-sm">
        <span className="text-muted">
          <span className="font-medium text-foreground">{principal.name}</span> · {principal.role}
        </span>
        {principal.via === 'session' ? (
          <form action={signOut}>
            <Button type="submit" variant="link">
              Sign out
            </Button>
          </form>
        ) : null}
      </div>
    </>
  );
}
