'use client';

import { useState } from 'react';
import { createAccount } from '@/lib/actions/accounts';
import { ROLES, type Role } from '@/lib/auth/roles';
import { errorFor, useAdminAction } from './use-admin-action';
import { Button } from '@/components/ui/button';

const INPUT = 'block w-full rounded-md border border-border-strong bg-surface px-2 py-1.5 text-sm outline-none focus:border-accent';

export function CreateAccountForm() {
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [created, setCreated] = useState<string | null>(null);
  const { pending, failure, run } = useAdminAction(createAccount);

  return (
    <form
      aria-label="New account"
      className="grid gap-3 sm:grid-cols-[1fr_1fr_auto_auto] sm:items-start"
      onSubmit={(event) => {
        event.preventDefault();
        run({ name, password, role }, (account) => {
          setCreated(account.name);
          setName('');
          setPassword('');
        });
      }}
    >
      <div>
        <label htmlFor="new-account-name" className="mb-1 block text-xs font-medium text-muted">
          Name
        </label>
        <input id="new-account-name" className={INPUT} value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" />
        <FieldMessage id="new-account-name-error" text={errorFor(failure, 'name')} />
      </div>
      <div>
        <label htmlFor="new-account-password" className="mb-1 block text-xs font-medium text-muted">
          Password
        </label>
        <input
          id="new-account-password"
          type="password"
          className={INPUT}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoComplete="new-password"
        />
        <FieldMessage id="new-account-password-error" text={errorFor(failure, 'password')} />
      </div>
      <div>
        <label htmlFor="new-account-role" className="mb-1 block text-xs font-medium text-muted">
          Role
        </label>
        <select id="new-account-role" className={INPUT} value={role} onChange={(e) => setRole(e.target.value as Role)}>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </div>
      <div className="sm:pt-5">
        <Button type="submit" disabled={pending} variant="primary">
          {pending ? 'Creating…' : 'Create account'}
        </Button>
      </div>
      <div className="sm:col-span-4" aria-live="polite">
        <FieldMessage id="new-account-form-error" text={errorFor(failure, 'form')} />
        {created && !failure ? <p className="text-sm text-success">Created {created}.</p> : null}
      </div>
    </form>
  );
}

export function FieldMessage({ id, text }: { id: string; text: string | null }) {
  if (!text) return null;
  return (
    <p id={id} role="alert" className="mt-1 text-xs font-medium text-danger">
      {text}
    </p>
  );
}
