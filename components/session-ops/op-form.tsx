'use client';

import type { ReactNode } from 'react';
import { ActionOutcome } from '@/components/actions/action-outcome';
import { Button } from '@/components/ui/button';
import { Form } from '@/components/ui/form';
import { panelClass } from '@/components/ui/panel';
import type { ActionFailure } from '@/lib/commands/result';

const PANEL = panelClass({ className: 'space-y-3 p-4' });

interface OpFormProps {
  /** The heading, and the form's accessible name. */
  title: string;
  onSubmit: () => void;
  failure: ActionFailure | null;
  done?: string | null;
  pending: boolean;
  /** The submit button's words, idle and while the action runs. */
  submit: readonly [idle: string, running: string];
  canSubmit?: boolean;
  /** The button that closes the form: 'Cancel', or 'Close' where a run leaves something to read. */
  close?: string;
  onClose: () => void;
  children: ReactNode;
}

/** A session operation's form: heading, fields, the last run's outcome, then run and close. */
export function OpForm({
  title,
  onSubmit,
  failure,
  done,
  pending,
  submit,
  canSubmit = true,
  close = 'Cancel',
  onClose,
  children,
}: OpFormProps) {
  return (
    <Form className={PANEL} aria-label={title} onSubmit={onSubmit}>
      <h2 className="font-semibold">{title}</h2>
      {children}
      <ActionOutcome failure={failure} done={done} />
      <div className="flex gap-2">
        <Button type="submit" variant="primary" disabled={pending || !canSubmit}>
          {pending ? submit[1] : submit[0]}
        </Button>
        <Button onClick={onClose}>{close}</Button>
      </div>
    </Form>
  );
}
