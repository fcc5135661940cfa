'use client';

import { useRef, useState, type FormEvent } from 'react';
import { callAction } from '@/lib/actions/call';
import { forkSession } from '@/lib/actions/session-ops';
import type { TimelineItem } from '@/lib/data/session-views';
import { comparePath, sessionApiPath, sessionPath } from '@/lib/paths';
import { sendToAgent } from '@/lib/queries/agent-send';
import { getJson, queryString } from '@/lib/queries/session-api';
import type { SessionRef } from '@/lib/session-service/store';
import type { Page } from '@/lib/session-service/types';
import { parseBranchState } from '@/lib/validation/agent-send';
import { StoreAnchor, useStoreRouter } from '@/components/nav/store-link';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { FieldError } from '@/components/ui/field';
import { Textarea } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

/** Events read after #N to find the next user message: an invocation's first event is the user's. */
const LOOK_AHEAD = 50;

/** The text of the first user message after `seq`: what the re-run sends again. */
async function nextUserMessage(ref: SessionRef, seq: number): Promise<string> {
  const page = await getJson<Page<TimelineItem>>(`${sessionApiPath(ref)}/timeline${queryString({ after: seq, limit: LOOK_AHEAD })}`);
  const user = page.items.find((item) => item.event.author === 'user');
  return (user?.event.content?.parts ?? []).map((part) => part.text ?? '').join('');
}

type Step =
  | { kind: 'idle' }
  | { kind: 'forking' }
  | { kind: 'sending'; fork: SessionRef; events: number }
  | { kind: 'failed'; message: string; fork: SessionRef | null };

/**
 * Re-run and what-if from an event: a fork at #N (the original never
 * changes), the message sent on the fork (the user message that followed #N,
 * as it was or edited) with optional session-state changes the agent's runner
 * applies with it, then the branch and the original side by side.
 */
export function WhatIfButton({ sessionRef, seq }: { sessionRef: SessionRef; seq: number }) {
  const router = useStoreRouter();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [stateText, setStateText] = useState('');
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [stateError, setStateError] = useState<string | null>(null);
  const controller = useRef<AbortController | null>(null);
  const busy = step.kind === 'forking' || step.kind === 'sending';

  async function openDialog() {
    setStep({ kind: 'idle' });
    setStateText('');
    setText('');
    setOpen(true);
    setText(await nextUserMessage(sessionRef, seq).catch(() => ''));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const state = parseBranchState(stateText);
    setStateError(state.ok ? null : state.message);
    if (!state.ok || !text.trim() || busy) return;
    setStep({ kind: 'forking' });
    const forked = await callAction(forkSession, { ...sessionRef, atSeq: seq });
    if (!forked.ok) return setStep({ kind: 'failed', message: forked.message, fork: null });
    const fork = { ...sessionRef, sessionId: forked.data.id };
    const abort = new AbortController();
    controller.current = abort;
    setStep({ kind: 'sending', fork, events: 0 });
    let failed: string | null = null;
    try {
      await sendToAgent(
        fork,
        text.trim(),
        abort.signal,
        (line) => {
          if (line.type === 'event')
            setStep((current) => (current.kind === 'sending' ? { ...current, events: current.events + 1 } : current));
          if (line.type === 'failed') failed = line.message;
        },
        state.value,
      );
    } catch (error) {
      failed = abort.signal.aborted ? 'Cancelled: the agent’s run on the branch was stopped.' : (error as Error).message;
    } finally {
      controller.current = null;
    }
    if (failed !== null) return setStep({ kind: 'failed', message: failed, fork });
    router.push(comparePath(sessionRef, fork));
  }

  return (
    <>
      <Button variant="secondary" size="sm" onClick={() => void openDialog()}>
        Re-run from #{seq}…
      </Button>
      <Dialog open={open} onCancel={() => (busy ? controller.current?.abort() : setOpen(false))} labelledBy="what-if-heading">
        <form onSubmit={(event) => void submit(event)} className="space-y-3 p-4">
          <h2 id="what-if-heading" className="text-lg font-semibold">
            Re-run from #{seq} on a branch
          </h2>
          <p className="text-sm text-muted">
            A fork of this session with events #1 to #{seq} (this session never changes) gets the message below, sent to the agent; then the
            branch and this session are compared side by side. Change the message or the session state for a what-if.
          </p>
          <div>
            <Label htmlFor="what-if-message" className="text-sm text-foreground">
              Message (the user message that followed #{seq})
            </Label>
            <Textarea
              id="what-if-message"
              value={text}
              rows={2}
              onChange={(event) => setText(event.target.value)}
              className="block w-full"
            />
          </div>
          <div>
            <Label htmlFor="what-if-state" className="text-sm text-foreground">
              Session state changes on the branch (JSON object, optional)
            </Label>
            <Textarea
              id="what-if-state"
              value={stateText}
              rows={2}
              placeholder='{"topic": "hiking"}'
              invalid={stateError !== null}
              aria-describedby={stateError ? 'what-if-state-error' : 'what-if-state-hint'}
              onChange={(event) => setStateText(event.target.value)}
              className="block w-full font-mono"
            />
            <p id="what-if-state-hint" className="mt-1 text-xs text-muted">
              Session keys only: app: and user: keys are shared with this session. The agent applies them with the message.
            </p>
            <FieldError id="what-if-state-error" message={stateError} alert />
          </div>
          <StepReport step={step} />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" variant="primary" disabled={busy || !text.trim()}>
              Branch, send and compare
            </Button>
            <Button onClick={() => (busy ? controller.current?.abort() : setOpen(false))}>{busy ? 'Stop' : 'Close'}</Button>
          </div>
        </form>
      </Dialog>
    </>
  );
}

function StepReport({ step }: { step: Step }) {
  if (step.kind === 'idle') return null;
  if (step.kind === 'failed') {
    return (
      <p role="alert" className="rounded-md border border-danger/40 bg-danger-surface px-3 py-2 text-sm text-danger">
        {step.message}{' '}
        {step.fork ? (
          <StoreAnchor className="underline" href={sessionPath(step.fork.appName, step.fork.userId, step.fork.sessionId)}>
            Open the branch
          </StoreAnchor>
        ) : null}
      </p>
    );
  }
  return (
    <p role="status" className="text-sm text-muted">
      {step.kind === 'forking' ? 'Branching…' : `Sent on the branch; ${step.events} ${step.events === 1 ? 'event' : 'events'} so far…`}
    </p>
  );
}
