'use client';

import { StoreAnchor } from '@/components/nav/store-link';
import { useSearchParams } from 'next/navigation';
import { useMemo, useState } from 'react';
import { JsonField } from '@/components/state-edit/json-field';
import { sessionPath } from '@/lib/paths';
import { seqOf } from '@/lib/queries/session-url';
import { spellJson } from '@/lib/session-service/json-spelling';
import type { SessionRef } from '@/lib/session-service/store';
import { parseStateText } from '@/lib/validation/json-text';
import { AsOfSelect } from './as-of-select';
import { SessionPicker } from './session-picker';
import { EXAMPLE_TEMPLATE, TemplateWorkbench } from './template-workbench';
import { usePreviewState } from './use-preview-state';
import { replaceParams, useTemplateUrl, useUrlText } from './use-template-url';
import { Tabs } from '@/components/ui/tabs';

type Mode = 'session' | 'state';

const MODES: { value: Mode; label: string }[] = [
  { value: 'session', label: 'A stored session' },
  { value: 'state', label: 'State typed as JSON' },
];

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
  const fromSession = usePreviewState(mode === 'session' ? session : null, asOf);
  const parsedState = parseStateText(typedState.value);
  // The typed text keeps what parsing forgets: a float written `2.0` renders `2.0` in the Python dialect.
  const typedWritten = useMemo(() => (mode === 'state' ? spellJson(typedState.value) : null), [mode, typedState.value]);
  const written = mode === 'state' ? typedWritten : fromSession.written;

  const chooseMode = (next: Mode) => {
    setMode(next);
    replaceParams(next === 'state' ? { app: null, user: null, session: null, event: null } : { state: null });
  };

  let source;
  let state = null;
  let stateProblem: string | null = null;
  if (mode === 'session') {
    state = fromSession.state;
    stateProblem =
      fromSession.missing && session
        ? `There is no session “${session.sessionId}” of user “${session.userId}” in app “${session.appName}”. Choose one above.`
        : fromSession.problem;
    source =
      session && !fromSession.missing ? (
        <div className="flex min-w-0 flex-wrap items-center gap-3">
          <AsOfSelect session={session} asOf={asOf} onChange={(next) => replaceParams({ event: next === null ? null : String(next) })} />
          <StoreAnchor
            href={sessionPath(session.appName, session.userId, session.sessionId)}
            className="text-sm text-accent underline underline-offset-2"
          >
            Open the session
          </StoreAnchor>
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
      <Tabs label="Render against" tabs={MODES} value={mode} onChange={chooseMode} />

      {mode === 'session' ? (
        <SessionPicker
          key={session ? `${session.appName}\u0000${session.userId}\u0000${session.sessionId}` : ''}
          initial={session}
          onPick={(picked) =>
            replaceParams({ app: picked.appName, user: picked.userId, session: picked.sessionId, event: null, state: null })
          }
        />
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
        url={url}
        against={{ state, written, problem: stateProblem }}
        source={source}
        shareable={url.shareable && (mode === 'session' || typedState.shareable)}
        loading={mode === 'state' || session !== null}
        headingLevel={2}
      />
    </div>
  );
}
