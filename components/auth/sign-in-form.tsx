'use client';

import { useActionState } from 'react';
import { signIn, type SignInState } from '@/lib/actions/auth';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

const INITIAL: SignInState = { name: '', error: null };
const INPUT = 'block w-full border-border-strong bg-surface px-3 py-2 outline-none focus:border-accent';

export function SignInForm({ returnTo }: { returnTo: string }) {
  const [state, action, pending] = useActionState(signIn, INITIAL);
  return (
    <form action={action} className="space-y-4" aria-describedby={state.error ? 'sign-in-error' : undefined}>
      <input type="hidden" name="next" value={returnTo} />
      <div className="space-y-1">
        <Label htmlFor="sign-in-name" className="text-sm text-foreground">
          Account name
        </Label>
        <Input
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
        <Label htmlFor="sign-in-password" className="text-sm text-foreground">
          Password
        </Label>
        <Input id="sign-in-password" name="password" type="password" autoComplete="current-password" required className={INPUT} />
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
