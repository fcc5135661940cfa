'use client';

import { useState } from 'react';
import { createAccount } from '@/lib/actions/accounts';
import { ROLES, type Role } from '@/lib/auth/roles';
import { Button } from '@/components/ui/button';
import { Form } from '@/components/ui/form';
import { Field, FieldError } from '@/components/ui/field';
import { Input, Select } from '@/components/ui/input';
import { useAction } from '@/components/actions/use-action';

const INPUT = 'block w-full py-1.5';
/** This row's labels: small and muted above their inputs. */
const LABEL = 'mb-1 text-xs text-muted';

export function CreateAccountForm() {
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [created, setCreated] = useState<string | null>(null);
  const { pending, failure, run, fieldError } = useAction(createAccount);

  return (
    <Form
      aria-label="New account"
      className="grid gap-3 sm:grid-cols-[1fr_1fr_auto_auto] sm:items-start"
      onSubmit={() => {
        run({ name, password, role }, (account) => {
          setCreated(account.name);
          setName('');
          setPassword('');
        });
      }}
    >
      <Field id="new-account-name" label="Name" labelClassName={LABEL} error={fieldError('name')} alert>
        <Input id="new-account-name" className={INPUT} value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" />
      </Field>
      <Field id="new-account-password" label="Password" labelClassName={LABEL} error={fieldError('password')} alert>
        <Input
          id="new-account-password"
          type="password"
          className={INPUT}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoComplete="new-password"
        />
      </Field>
      <Field id="new-account-role" label="Role" labelClassName={LABEL} error={null}>
        <Select id="new-account-role" className={INPUT} value={role} onChange={(e) => setRole(e.target.value as Role)}>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </Select>
      </Field>
      <div className="sm:pt-5">
        <Button type="submit" disabled={pending} variant="primary">
          {pending ? 'Creating…' : 'Create account'}
        </Button>
      </div>
      <div className="sm:col-span-4" aria-live="polite">
        <FieldError alert id="new-account-form-error" message={fieldError('form')} />
        {created && !failure ? <p className="text-sm text-success">Created {created}.</p> : null}
      </div>
    </Form>
  );
}
