'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { TimelineItem } from '@/lib/data/session-views';
import { sessionApiPath } from '@/lib/paths';
import { sendsOptions, sendToAgent, type AgentEvent, type SendLine } from '@/lib/queries/agent-send';
import { sessionKeys } from '@/lib/queries/session';
import { getJson, queryString } from '@/lib/queries/session-api';
import type { SessionRef } from '@/lib/session-service/store';
import type { Page } from '@/lib/session-service/types';
import { MAX_MESSAGE_CHARS } from '@/lib/validation/agent-send';
import { Button } from '@/components/ui/button';
import { FieldError } from '@/components/ui/field';
import { Textarea } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { panelClass } from '@/components/ui/panel';
import { SendHistory } from './send-history';
import { StreamedEventRow } from './streamed-event-row';

type Status = 'sending' | 'done' | 'failed' | 'cancelled';

interface Run {
  message: string;
  status: Status;
  events: AgentEvent[];
  /** Timeline rows of the streamed events, by event id, once the store has them. */
  seqs: Record<string, number>;
  error: string | null;
}

/** Events read back per send to find the streamed ones' rows: far more than one turn writes. */
const ROWS_READ = 200;

/**
 * The box that sends the user's next message to the session's agent through
 * its ADK API server. The agent's events come back as it writes them; each is
 * listed here with its timeline row (matched by event id) once the store
 * holds it, and the timeline and state refresh at once.
 */
export function AgentChat({
  sessionRef,
  server,
  eventCount,
  onSelect,
}: {
  sessionRef: SessionRef;
  /** The configured server, as the page may show it. */
  server: string;
  /** Events before this send: the streamed ones come after. */
  eventCount: number | undefined;
  onSelect: (seq: number) => void;
}) {
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [run, setRun] = useState<Run | null>(null);
  const [waited, setWaited] = useState(0);
  const controller = useRef<AbortController | null>(null);
  const sending = run?.status === 'sending';

  useEffect(() => {
    if (!sending) return;
    const started = Date.now();
    const timer = setInterval(() => setWaited(Math.floor((Date.now() - started) / 1000)), 1000);
    return () => clearInterval(timer);
  }, [sending]);
  useEffect(() => () => controller.current?.abort(), []);

  /** The store's rows after `after`, to match streamed events by id; the live state refetch moves the timeline. */
  async function matchRows(after: number) {
    void queryClient.invalidateQueries({ queryKey: sessionKeys.state(sessionRef, null) });
    const page = await getJson<Page<TimelineItem>>(
      `${sessionApiPath(sessionRef)}/timeline${queryString({ after, limit: ROWS_READ, preview: 1 })}`,
    ).catch(() => null);
    if (!page) return;
    const seqs = Object.fromEntries(page.items.map((item) => [item.event.id, item.seq]));
    setRun((current) => (current ? { ...current, seqs: { ...current.seqs, ...seqs } } : current));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const message = text.trim();
    if (!message || sending) return;
    const abort = new AbortController();
    controller.current = abort;
    const after = eventCount ?? 0;
    setWaited(0);
    setRun({ message, status: 'sending', events: [], seqs: {}, error: null });
    let failed = false;
    const onLine = (line: SendLine) => {
      if (line.type === 'failed') failed = true;
      if (line.type === 'event') {
        setRun((current) => (current ? { ...current, events: [...current.events, line.event] } : current));
        void matchRows(after);
      } else if (line.type === 'done') setRun((current) => (current ? { ...current, status: 'done' } : current));
      else setRun((current) => (current ? { ...current, status: 'failed', error: line.message } : current));
    };
    try {
      await sendToAgent(sessionRef, message, abort.signal, onLine);
      // A message that did not get its answer stays in the box, to send again.
      if (!failed) setText('');
    } catch (error) {
      const status: Status = abort.signal.aborted ? 'cancelled' : 'failed';
      setRun((current) => (current ? { ...current, status, error: status === 'failed' ? (error as Error).message : null } : current));
    } finally {
      controller.current = null;
      void queryClient.invalidateQueries({ queryKey: sendsOptions(sessionRef).queryKey });
      // The user's own message, and anything written before a failure or a cancel, is in the store too.
      void matchRows(after);
    }
  }

  const tooLong = text.length > MAX_MESSAGE_CHARS;
  return (
    <section aria-labelledby="agent-chat-heading" className={panelClass({ className: 'space-y-3 p-4' })}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="agent-chat-heading" className="text-lg font-semibold">
          Talk to the agent
        </h2>
        <p className="break-all text-xs text-muted">through {server}</p>
      </div>
      <form onSubmit={(event) => void submit(event)} className="space-y-2">
        <Label htmlFor="agent-message" className="text-sm text-foreground">
          Message to the agent, as the user
        </Label>
        <Textarea
          id="agent-message"
          value={text}
          onChange={(event) => setText(event.target.value)}
          rows={2}
          invalid={tooLong}
          aria-describedby={tooLong ? 'agent-message-error' : undefined}
          className="block w-full"
          onKeyDown={(event) => {
            if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) void submit(event);
          }}
        />
        <FieldError id="agent-message-error" message={tooLong ? `At most ${MAX_MESSAGE_CHARS.toLocaleString('en')} characters.` : null} />
        <div className="flex flex-wrap items-center gap-2">
          <Button type="submit" variant="primary" disabled={sending || !text.trim() || tooLong}>
            Send
          </Button>
          {sending ? (
            <Button variant="secondary" onClick={() => controller.current?.abort()}>
              Cancel
            </Button>
          ) : null}
        </div>
      </form>
      {run ? <RunReport run={run} waited={waited} onSelect={onSelect} /> : null}
      <SendHistory sessionRef={sessionRef} />
    </section>
  );
}

function RunReport({ run, waited, onSelect }: { run: Run; waited: number; onSelect: (seq: number) => void }) {
  const count = `${run.events.length} ${run.events.length === 1 ? 'event' : 'events'}`;
  const said =
    run.status === 'sending'
      ? `Waiting for the agent${waited > 0 ? ` (${waited} s)` : ''}… ${run.events.length > 0 ? `${count} so far.` : ''}`
      : run.status === 'done'
        ? `The agent answered with ${count}.`
        : run.status === 'cancelled'
          ? `Cancelled after ${count}: the agent's run was stopped; whatever it wrote before is in the timeline.`
          : null;
  return (
    <div className="space-y-2 border-t border-border pt-3">
      <p className="text-sm">
        <span className="text-muted">Sent:</span> <span className="whitespace-pre-wrap break-words">{run.message}</span>
      </p>
      {said ? (
        <p role="status" className="text-sm text-muted">
          {said}
        </p>
      ) : null}
      {run.error ? (
        <p role="alert" className="rounded-md border border-danger/40 bg-danger-surface px-3 py-2 text-sm text-danger">
          {run.error}
          {run.events.length > 0 ? ` (${count} came before; they are in the timeline.)` : ' Nothing was written to the session.'}
        </p>
      ) : null}
      {run.events.length > 0 ? (
        <ol aria-label="The agent's events" className="space-y-1">
          {run.events.map((event) => (
            <StreamedEventRow key={event.id} event={event} seq={run.seqs[event.id]} onSelect={onSelect} />
          ))}
        </ol>
      ) : null}
    </div>
  );
}
