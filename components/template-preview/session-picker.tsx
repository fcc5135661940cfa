'use client';

import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input, Select } from '@/components/ui/input';
import { appsOptions, sessionsOptions, usersOptions } from '@/lib/queries/directory';
import type { SessionRef } from '@/lib/session-service/store';

const SESSION_CHOICES = 100;
const USER_SUGGESTIONS = 20;

const control = 'mt-1 block w-full min-w-0 py-1.5 font-mono text-xs';

/**
 * Chooses a stored session by picking, not typing three exact ids: the app
 * from the apps there are, the user with suggestions as it is typed, then one
 * of that user's sessions. Says plainly when the user has none.
 */
export function SessionPicker({ initial, onPick }: { initial: SessionRef | null; onPick: (session: SessionRef) => void }) {
  const [appName, setAppName] = useState(initial?.appName ?? '');
  const [userId, setUserId] = useState(initial?.userId ?? '');
  const [sessionId, setSessionId] = useState(initial?.sessionId ?? '');
  const [tried, setTried] = useState(false);
  const typedUser = useDeferredValue(userId.trim());
  const ids = { app: useId(), user: useId(), users: useId(), session: useId() };

  const apps = useQuery(appsOptions());
  const users = useQuery({ ...usersOptions(appName, typedUser, USER_SUGGESTIONS), enabled: appName !== '' });
  const knownUser = users.data?.items.some((user) => user.userId === typedUser) ?? false;
  const sessions = useQuery({ ...sessionsOptions(appName, typedUser, '', SESSION_CHOICES), enabled: appName !== '' && knownUser });
  const sessionItems = sessions.data?.items ?? [];
  const chosenSession = sessionItems.some((session) => session.id === sessionId) ? sessionId : (sessionItems[0]?.id ?? '');

  let userError: string | null = null;
  if (appName !== '' && typedUser !== '' && users.data && !users.isFetching && !knownUser) {
    userError =
      users.data.items.length > 0
        ? `No user “${typedUser}” in ${appName}: pick one of the suggestions.`
        : `No user of ${appName} has an id containing “${typedUser}”.`;
  } else if (tried && typedUser === '') userError = 'Choose a user.';
  const sessionError = knownUser && sessions.data && sessionItems.length === 0 ? `${typedUser} has no sessions in ${appName}.` : null;

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setTried(true);
        if (appName && knownUser && chosenSession) onPick({ appName, userId: typedUser, sessionId: chosenSession });
      }}
      className="grid items-start gap-3 sm:grid-cols-[1fr_1fr_1fr_auto]"
    >
      <Field
        id={ids.app}
        label="App"
        error={tried && appName === '' ? 'Choose an app.' : apps.error ? `Could not list the apps: ${apps.error.message}` : null}
      >
        <Select
          id={ids.app}
          value={appName}
          onChange={(event) => {
            setAppName(event.target.value);
            setUserId('');
            setSessionId('');
          }}
          invalid={tried && appName === ''}
          className={control}
        >
          <option value="">{apps.isPending ? 'Loading apps…' : 'Choose an app'}</option>
          {(apps.data ?? []).map((app) => (
            <option key={app.appName} value={app.appName}>
              {app.appName}
            </option>
          ))}
          {initial && apps.data && !apps.data.some((app) => app.appName === initial.appName) ? (
            <option value={initial.appName}>{initial.appName} (not found)</option>
          ) : null}
        </Select>
      </Field>
      <Field id={ids.user} label="User" error={userError}>
        <Input
          id={ids.user}
          type="text"
          list={ids.users}
          value={userId}
          disabled={appName === ''}
          onChange={(event) => {
            setUserId(event.target.value);
            setSessionId('');
          }}
          placeholder={appName === '' ? 'Choose an app first' : 'Type to find a user'}
          autoComplete="off"
          spellCheck={false}
          invalid={Boolean(userError)}
          aria-describedby={userError ? `${ids.user}-error` : undefined}
          className={control}
        />
        <datalist id={ids.users}>
          {(users.data?.items ?? []).map((user) => (
            <option key={user.userId} value={user.userId}>
              {`${user.sessionCount} session${user.sessionCount === 1 ? '' : 's'}`}
            </option>
          ))}
        </datalist>
      </Field>
      <Field id={ids.session} label="Session" error={sessionError}>
        <Select
          id={ids.session}
          value={chosenSession}
          disabled={!knownUser || sessionItems.length === 0}
          onChange={(event) => setSessionId(event.target.value)}
          aria-describedby={sessionError ? `${ids.session}-error` : undefined}
          className={control}
        >
          {!knownUser ? <option value="">Choose a user first</option> : null}
          {sessionItems.map((session) => (
            <option key={session.id} value={session.id}>
              {session.id} · {session.eventCount} events
            </option>
          ))}
        </Select>
      </Field>
      <Button type="submit" variant="primary" className="mt-6">
        Load state
      </Button>
    </form>
  );
}
