'use client';

import { useState } from 'react';
import { createApiToken, revokeApiToken, setAccountPassword, updateAccount } from '@/lib/actions/accounts';
import { ROLES, type Role } from '@/lib/auth/roles';
import type { Account, ApiTokenInfo } from '@/lib/auth/store';
import { CopyButton } from '@/components/json';
import { Button } from '@/components/ui/button';
import { FieldError } from '@/components/ui/field';
import { Input, Select } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { fieldError, useAction } from '@/components/actions/use-action';

const INPUT = 'text-xs';
const LABEL = 'inline text-xs font-normal';
const when = (seconds: number | null) =>
  seconds === null ? 'never' : new Date(seconds * 1000).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';

/** One account: role, enabled, password, and its API tokens. */
export function AccountRow({ account, tokens, isSelf }: { account: Account; tokens: ApiTokenInfo[]; isSelf: boolean }) {
  const update = useAction(updateAccount);
  const password = useAction(setAccountPassword);
  const tokenCreate = useAction(createApiToken);
  const revoke = useAction(revokeApiToken);
  const [role, setRole] = useState<Role>(account.role);
  const [newPassword, setNewPassword] = useState('');
  const [passwordSaved, setPasswordSaved] = useState(false);
  const [label, setLabel] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  const id = `account-${account.id}`;

  return (
    <li aria-label={`Account ${account.name}`} className="space-y-3 px-4 py-3">
      <div className="flex flex-wrap items-center gap-3">
        <span className="font-mono text-sm font-medium">{account.name}</span>
        {isSelf ? <span className="text-xs text-muted">(you)</span> : null}
        {account.disabled ? <span className="rounded bg-danger-surface px-1.5 py-0.5 text-xs text-danger">disabled</span> : null}
        <Label htmlFor={`${id}-role`} className={`ml-auto ${LABEL}`}>
          Role
        </Label>
        <Select id={`${id}-role`} className={INPUT} value={role} onChange={(e) => setRole(e.target.value as Role)}>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </Select>
        <Button size="xs" disabled={update.pending || role === account.role} onClick={() => update.run({ name: account.name, role })}>
          Save role
        </Button>
        <Button size="xs" disabled={update.pending} onClick={() => update.run({ name: account.name, disabled: !account.disabled })}>
          {account.disabled ? 'Enable' : 'Disable'}
        </Button>
      </div>
      <FieldError alert id={`${id}-update-error`} message={fieldError(update.failure, 'form') ?? fieldError(update.failure, 'name')} />

      <form
        className="flex flex-wrap items-center gap-2"
        aria-label={`New password for ${account.name}`}
        onSubmit={(event) => {
          event.preventDefault();
          password.run({ name: account.name, password: newPassword }, () => {
            setNewPassword('');
            setPasswordSaved(true);
          });
        }}
      >
        <Label htmlFor={`${id}-password`} className={LABEL}>
          New password
        </Label>
        <Input
          id={`${id}-password`}
          type="password"
          autoComplete="new-password"
          className={INPUT}
          value={newPassword}
          onChange={(e) => {
            setNewPassword(e.target.value);
            setPasswordSaved(false);
          }}
        />
        <Button type="submit" size="xs" disabled={password.pending || newPassword === ''}>
          Set password
        </Button>
        {passwordSaved ? <span className="text-xs text-success">Password set; the account was signed out everywhere.</span> : null}
        <FieldError
          alert
          id={`${id}-password-error`}
          message={fieldError(password.failure, 'password') ?? fieldError(password.failure, 'form')}
        />
      </form>

      <div className="space-y-2">
        <form
          className="flex flex-wrap items-center gap-2"
          aria-label={`New API token for ${account.name}`}
          onSubmit={(event) => {
            event.preventDefault();
            tokenCreate.run({ name: account.name, label }, (created) => {
              setSecret(created.secret);
              setLabel('');
            });
          }}
        >
          <Label htmlFor={`${id}-token-label`} className={LABEL}>
            Token label
          </Label>
          <Input
            id={`${id}-token-label`}
            className={INPUT}
            value={label}
            onChange={(e) => setLabel(e.target.value)}
            placeholder="e.g. agent-prod"
          />
          <Button type="submit" size="xs" disabled={tokenCreate.pending}>
            Create token
          </Button>
          <FieldError
            alert
            id={`${id}-token-error`}
            message={fieldError(tokenCreate.failure, 'label') ?? fieldError(tokenCreate.failure, 'form')}
          />
        </form>
        {secret ? (
          <div role="status" className="rounded-md border border-warning bg-warning-surface px-3 py-2 text-xs">
            <p className="font-medium">New token — copy it now, it is not shown again:</p>
            <div className="mt-1 flex items-center gap-2">
              <code className="break-all font-mono">{secret}</code>
              <CopyButton text={secret} label="Copy token" />
            </div>
          </div>
        ) : null}
        {tokens.length > 0 ? (
          <ul className="space-y-1 text-xs" aria-label={`API tokens of ${account.name}`}>
            {tokens.map((token) => (
              <li key={token.id} className="flex flex-wrap items-center gap-3">
                <span className="font-mono">#{token.id}</span>
                <span>{token.label}</span>
                <span className="text-muted">
                  created {when(token.createTime)} · last used {when(token.lastUseTime)}
                </span>
                {token.revoked ? (
                  <span className="text-danger">revoked</span>
                ) : (
                  <Button size="xs" disabled={revoke.pending} onClick={() => revoke.run({ id: token.id })}>
                    Revoke #{token.id}
                  </Button>
                )}
              </li>
            ))}
          </ul>
        ) : null}
        <FieldError alert id={`${id}-revoke-error`} message={fieldError(revoke.failure, 'form')} />
      </div>
    </li>
  );
}
