import type { Metadata } from 'next';
import { AccountRow } from '@/components/accounts/account-row';
import { CreateAccountForm } from '@/components/accounts/create-account-form';
import { Breadcrumbs } from '@/components/nav/breadcrumbs';
import { requireViewer } from '@/lib/current-principal';
import { hasRole, ROLE_DESCRIPTIONS, ROLES } from '@/lib/auth/roles';
import { authConfig, isReadOnly } from '@/lib/config';
import { getAccountStore } from '@/lib/services';
import { ACCOUNTS_PATH, APPS_PATH } from '@/lib/paths';
import { panelClass } from '@/components/ui/panel';

export const metadata: Metadata = { title: 'Accounts' };

export default async function AccountsPage() {
  const principal = await requireViewer(ACCOUNTS_PATH);
  const heading = (
    <>
      <Breadcrumbs
        trail={[
          { label: 'Apps', href: APPS_PATH },
          { label: 'Accounts', href: ACCOUNTS_PATH },
        ]}
      />
      <h1 className="text-2xl font-semibold tracking-tight">Accounts</h1>
    </>
  );
  if (!hasRole(principal.role, 'admin')) {
    return (
      <div className="space-y-4">
        {heading}
        <p role="alert" className="rounded-md bg-danger-surface px-4 py-3 text-sm text-danger">
          Managing accounts needs the admin role; {principal.name} is {principal.role}.
        </p>
      </div>
    );
  }

  const store = await getAccountStore();
  const [accounts, tokens] = await Promise.all([store.listAccounts(), store.listTokens()]);
  const config = authConfig();
  if (isReadOnly()) {
    return (
      <div className="space-y-4">
        {heading}
        <p className="text-sm text-muted">
          This console is read-only (STATEHOUSE_READ_ONLY): accounts are managed with <code className="text-xs">npm run accounts</code>.
        </p>
        <ul aria-label="Accounts" className={panelClass({ className: 'divide-y divide-border' })}>
          {accounts.map((account) => (
            <li key={account.id} className="flex gap-3 px-4 py-2 text-sm">
              <span className="font-mono font-medium">{account.name}</span>
              <span className="text-muted">{account.role}</span>
              {account.disabled ? <span className="text-danger">disabled</span> : null}
            </li>
          ))}
        </ul>
      </div>
    );
  }
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        {heading}
        <p className="text-sm text-muted">
          Access is {config.reason}. {config.mode === 'local' ? 'Accounts take effect once the console runs protected.' : null}
        </p>
        <ul className="text-sm text-muted">
          {ROLES.map((role) => (
            <li key={role}>
              <span className="font-medium text-foreground">{role}</span>: {ROLE_DESCRIPTIONS[role]}
            </li>
          ))}
        </ul>
      </div>
      <section aria-labelledby="new-account" className={panelClass({ className: 'p-4' })}>
        <h2 id="new-account" className="mb-3 text-base font-semibold">
          New account
        </h2>
        <CreateAccountForm />
      </section>
      <section aria-labelledby="all-accounts" className={panelClass()}>
        <h2 id="all-accounts" className="border-b border-border px-4 py-3 text-base font-semibold">
          {accounts.length} account{accounts.length === 1 ? '' : 's'}
        </h2>
        {accounts.length === 0 ? (
          <p className="px-4 py-6 text-sm text-muted">No accounts yet. Create the first admin above or with `npm run accounts`.</p>
        ) : (
          <ul className="divide-y divide-border">
            {accounts.map((account) => (
              <AccountRow
                key={account.id}
                account={account}
                tokens={tokens.filter((token) => token.accountName === account.name)}
                isSelf={principal.via !== 'local' && principal.name === account.name}
              />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
