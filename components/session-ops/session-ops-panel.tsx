'use client';

import { useState } from 'react';
import { StoreAnchor } from '@/components/nav/store-link';
import { Button, buttonClass } from '@/components/ui/button';
import { sessionExportPath } from '@/lib/paths';
import type { OperationRefusals } from '@/lib/data/session-ops';
import type { SessionMeta } from '@/lib/session-service/operations';
import type { SessionRef } from '@/lib/session-service/store';
import { ForkForm } from './fork-form';
import { PruneForm } from './prune-form';
import { RewindForm, type InvocationChoice } from './rewind-form';
import { TitleForm } from './title-form';

type Open = 'title' | 'fork' | 'rewind' | 'prune' | null;

export interface SessionOpsPanelProps {
  session: SessionRef;
  eventCount: number;
  /** Null when the store keeps no titles (no title button then). */
  meta: SessionMeta | null;
  invocations: InvocationChoice[];
  /** Support and up: title, fork, rewind, export. */
  canOperate: boolean;
  /** Admins: deletions. */
  canPrune: boolean;
  /** What this store refuses, and why: those buttons are not offered, and the reasons are said instead. */
  refusals?: OperationRefusals;
}

/** The buttons of the session's operations, each opening its form; only those the role allows. */
export function SessionOpsPanel({ session, eventCount, meta, invocations, canOperate, canPrune, refusals = {} }: SessionOpsPanelProps) {
  const [open, setOpen] = useState<Open>(null);
  if (!canOperate && !canPrune) return null;
  const offerFork = canOperate && eventCount > 0 && refusals.fork === undefined;
  const offerPrune = canPrune && refusals.prune === undefined;
  const notOffered = [
    ...(canOperate && refusals.fork ? [`Fork: ${refusals.fork}`] : []),
    ...(canOperate && refusals.meta ? [`Title and labels: ${refusals.meta}`] : []),
    ...(canPrune && refusals.prune ? [`Delete: ${refusals.prune}`] : []),
  ];
  const toggle = (next: Open) => setOpen((current) => (current === next ? null : next));
  const close = () => setOpen(null);
  return (
    <div className="mb-6 space-y-3">
      <div className="flex flex-wrap gap-2" role="group" aria-label="Session operations">
        {canOperate && meta ? (
          <Button aria-expanded={open === 'title'} onClick={() => toggle('title')}>
            Title and labels
          </Button>
        ) : null}
        {offerFork ? (
          <Button aria-expanded={open === 'fork'} onClick={() => toggle('fork')}>
            Fork
          </Button>
        ) : null}
        {canOperate && invocations.length > 0 ? (
          <Button aria-expanded={open === 'rewind'} onClick={() => toggle('rewind')}>
            Rewind
          </Button>
        ) : null}
        {canOperate ? (
          <StoreAnchor className={buttonClass()} href={sessionExportPath(session.appName, session.userId, session.sessionId)} download>
            Export
          </StoreAnchor>
        ) : null}
        {offerPrune ? (
          <Button aria-expanded={open === 'prune'} onClick={() => toggle('prune')}>
            Delete…
          </Button>
        ) : null}
      </div>
      {open === 'title' && meta ? <TitleForm session={session} meta={meta} onClose={close} /> : null}
      {open === 'fork' ? <ForkForm session={session} eventCount={eventCount} onClose={close} /> : null}
      {open === 'rewind' ? <RewindForm session={session} invocations={invocations} onClose={close} /> : null}
      {open === 'prune' ? <PruneForm scope={{ session, invocations, eventsRefused: refusals.pruneEvents }} onClose={close} /> : null}
      {notOffered.length > 0 ? (
        <ul aria-label="Not offered on this store" className="text-sm text-muted" data-testid="operations-not-offered">
          {notOffered.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
