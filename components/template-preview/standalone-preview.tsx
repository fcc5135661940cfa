'use client';

import { useSearchParams } from 'next/navigation';
import { useId, useState } from 'react';
import { JsonField } from '@/components/state-edit/json-field';
import { TextField } from '@/components/state-edit/text-field';
import { sessionPath } from '@/lib/paths';
import { seqOf } from '@/lib/queries/session-url';
import type { SessionRef } from '@/lib/session-service/store';
import { parseStateText } from '@/lib/validation/json-text';
import { AsOfSelect } from './as-of-select';
import { EXAMPLE_TEMPLATE, TemplateWorkbench } from './template-workbench';
import { usePreviewState } from './use-preview-state';
import { replaceParams, useTemplateUrl, useUrlText } from './use-template-url';
import { Button } from '@/components/ui/button';

type Mode = 'session' | 'state';

function sessionOf(params: URLSearchParams): SessionRef | null {
  const appName = params.get('app');
  const userId = params.get('user');
  const sessionId = params.get('session');
  return appName && userId && sessionId ? { appName, userId, sessionId } : null;
}

function stateError(text: string): string | null {
  const parsed = parseStateText(text);
  return parsed.ok ? null : parsed.message;
}

const EXAMPLE_STATE = '{\n  "user:name": "Ada",\n  "topic": "tea",\n  "app:tone": "Be brief."\n}';

/**
 * The standalone preview: a template rendered against a stored session (now
 * or as of an event) or against state typed in as JSON. Everything is in the
 * URL (`?app&user&session&event&template&dialect`, or `?state=`), so the
 * address bar shares the preview.
 */
export function StandalonePreview() {
  const params = useSearchParams();
  const session = sessionOf(params);
  const asOf = session ? seqOf(params.get('event')) : null;
  const [mode, setMode] = useState<Mode>(() => (session ? 'session' : 'state'));
  const url = useTemplateUrl(EXAMPLE_TEMPLATE);
  const typedState = useUrlText('state', EXAMPLE_STATE, mode === 'state');
  const [ids, setIds] = useState({ appName: session?.appName ?? '', userId: session?.userId ?? '', sessionId: session?.sessionId ?? '' });
  const [idsTried, setIdsTried] = useState(false);
  const fromSession = usePreviewState(mode === 'session' ? session : null, asOf);
  const parsedState = parseStateText(typedState.value);
  const formId = useId();

  const idError = (value: string) => (idsTried && value.trim() === '' ? 'is required' : null);

  const chooseMode = (next: Mode) => {
    setMode(next);
    replaceParams(next === 'state' ? { app: null, user: null, session: null, event: null } : { state: null });
  };

  let source;
  let state = null;
  let stateProblem: string | null = null;
  if (mode === 'session') {
    state = fromSession.state;
    stateProblem = fromSession.problem;
    source = session ? (
      <div className="flex flex-wrap items-center gap-3">
        <AsOfSelect session={session} asOf={asOf} onChange={(next) => replaceParams({ event: next === null ? null : String(next) })} />
        <a href={sessionPath(session.appName, session.userId, session.sessionId)} className="text-sm text-accent hover:underline">
          Open the session
        </a>
      </div>
    ) : (
      <p className="text-muted">Choose a session above to render against its state.</p>
    );
  } else {
    state = parsedState.ok ? parsedState.value : null;
    stateProblem = parsedState.ok ? null : 'Fix the state JSON above to see the preview.';
    source = <p className="text-muted">Rendering against the state typed above.</p>;
  }

  return (
    <div className="space-y-6">
      <div role="tablist" aria-label="Render against" className="flex gap-1 border-b border-border">
        {(
          [
            ['session', 'A stored session'],
            ['state', 'State typed as JSON'],
          ] as const
        ).map(([value, label]) => (
          <button
            key={value}
            type="button"
            role="tab"
            aria-selected={mode === value}
            onClick={() => chooseMode(value)}
            className={`-mb-px border-b-2 px-3 py-1.5 text-sm font-medium ${mode === value ? 'border-accent text-accent' : 'border-transparent text-muted hover:text-foreground'}`}
          >
            {label}
          </button>
        ))}
      </div>

      {mode === 'session' ? (
        <form
          id={formId}
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            setIdsTried(true);
            const { appName, userId, sessionId } = ids;
            if (!appName.trim() || !userId.trim() || !sessionId.trim()) return;
            replaceParams({ app: appName, user: userId, session: sessionId, event: null, state: null });
          }}
          className="grid items-end gap-3 sm:grid-cols-[1fr_1fr_1fr_auto]"
        >
          <TextField label="App" value={ids.appName} onChange={(appName) => setIds({ ...ids, appName })} error={idError(ids.appName)} mono />
          <TextField label="User" value={ids.userId} onChange={(userId) => setIds({ ...ids, userId })} error={idError(ids.userId)} mono />
          <TextField label="Session" value={ids.sessionId} onChange={(sessionId) => setIds({ ...ids, sessionId })} error={idError(ids.sessionId)} mono />
          <Button type="submit" variant="primary" className="mb-0.5">
            Load state
          </Button>
        </form>
      ) : (
        <JsonField
          label="State (JSON object, keys as an agent sees them)"
          value={typedState.value}
          onChange={typedState.setValue}
          validate={stateError}
          rows={6}
          hint="Merged state: topic (session), user:name, app:tone. temp: keys too, as during an invocation."
        />
      )}

      <TemplateWorkbench
        template={url.template}
        onTemplate={url.setTemplate}
        dialect={url.dialect}
        onDialect={url.setDialect}
        state={state}
        stateProblem={stateProblem}
        source={source}
        shareable={url.shareable && (mode === 'session' || typedState.shareable)}
        loading={mode === 'state' || session !== null}
      />
    </div>
  );
}
