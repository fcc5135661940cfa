'use client';

import { useActionState } from 'react';
import { signIn, type SignInState } from '@/lib/actions/auth';
import { Button } from '@/components/ui/button';

const INITIAL: SignInState = { name: '', error: null };
const INPUT = 'block w-full rounded-md border border-border-strong bg-surface px-3 py-2 text-sm outline-none focus:border-accent';

export function SignInForm({ returnTo }: { returnTo: string }) {
  const [state, action, pending] = useActionState(signIn, INITIAL);
  return (
    <form action={action} className="space-y-4" aria-describedby={state.error ? 'sign-in-error' : undefined}>
      <input type="hidden" name="next" value={returnTo} />
      <div className="space-y-1">
        <label htmlFor="sign-in-name" className="block text-sm font-medium">
          Account name
        </label>
        <input
          id="sign-in-name"
          name="name"
          autoComplete="username"
          required
          defaultValue={state.name}
          key={state.name}
          className={INPUT}
        />
      </div>
      <div className="space-y-1">
        <label htmlFor="sign-in-password" className="block text-sm font-medium">
          Password
        </label>
        <input id="sign-in-password" name="password" type="password" autoComplete="current-password" required className={INPUT} />
      </div>
      {state.error ? (
        <p id="sign-in-error" role="alert" className="rounded-md bg-danger-surface px-3 py-2 text-sm text-danger">
          {state.error}
        </p>
      ) : null}
      <Button type="submit" disabled={pending} variant="primary" size="md" className="w-full">
        {pending ? 'Signing in…' : 'Sign in'}
      </Button>
    </form>
  );
}
