import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { SignInForm } from '@/components/auth/sign-in-form';
import { safeReturnPath } from '@/lib/auth/return-path';
import { currentPrincipal } from '@/lib/current-principal';
import { authConfig } from '@/lib/config';
import { panelClass } from '@/components/ui/panel';
import { buttonClass } from '@/components/ui/button';
import { oidcSignInPath } from '@/lib/paths';

export const metadata: Metadata = { title: 'Sign in' };

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ next?: string | string[]; error?: string | string[] }>;
}) {
  const { next, error } = await searchParams;
  const refusal = (Array.isArray(error) ? error[0] : error)?.slice(0, 300);
  const returnTo = safeReturnPath(Array.isArray(next) ? next[0] : next);
  const config = authConfig();
  if (config.mode === 'local' || (await currentPrincipal())) redirect(returnTo);

  return (
    <div className="mx-auto max-w-sm space-y-6 pt-8">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Sign in</h1>
        <p className="mt-1 text-sm text-muted">Access is {config.reason}.</p>
      </div>
      {refusal ? (
        <p role="alert" className="rounded-md bg-danger-surface px-3 py-2 text-sm text-danger">
          {refusal}
        </p>
      ) : null}
      {config.oidc ? (
        <a href={oidcSignInPath(returnTo)} className={buttonClass({ variant: 'primary', size: 'md', className: 'w-full justify-center' })}>
          Sign in with {config.oidc.label}
        </a>
      ) : null}
      <div className={panelClass({ className: 'p-6' })}>
        <SignInForm returnTo={returnTo} />
      </div>
      <p className="text-sm text-muted">
        No account yet? An administrator creates one on the server with{' '}
        <code className="rounded bg-surface-muted px-1 py-0.5 text-xs">npm run accounts -- create &lt;name&gt; --role viewer</code>. Scripts
        use API tokens instead (<code className="text-xs">npm run accounts -- token create &lt;name&gt;</code>); the README&apos;s “Access”
        section has the details.
      </p>
    </div>
  );
}
