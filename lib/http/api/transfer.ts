// Export and import: a session as ADK's session file, an app's or a user's sessions as JSON Lines, and imports of such files (a preview unless ?dryRun=false).
import { getStore } from '../../services';
import { sessionNotFound } from '../../session-service/errors';
import { exportFileName, sessionFileChunks, sessionFileText } from '../../session-service/session-file';
import { jsonChunksResponse, STREAMED_EVENTS_OVER } from '../respond';
import { route } from '../handler';
import { appNameOf, sessionRefOf, userRefOf, type AppParams, type SessionParams, type UserParams } from '../params';
import { exportResponse, importResponse } from '../session-transfer';

export const exportApp = route<AppParams>(async (_request, params) => exportResponse(await getStore(), appNameOf(params)));

export const exportUser = route<UserParams>(async (_request, params) => {
  const { appName, userId } = userRefOf(params);
  return exportResponse(await getStore(), appName, userId);
});

/** What `adk run --save_session` writes and `adk run --resume` loads, as a download. */
export const exportSession = route<SessionParams>(async (_request, params) => {
  const ref = sessionRefOf(params);
  const session = await (await getStore()).getSession(ref);
  if (!session) throw sessionNotFound(ref.sessionId);
  const headers = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Disposition': `attachment; filename="${exportFileName(ref.sessionId, 'session.json')}"`,
  };
  if (session.events.length > STREAMED_EVENTS_OVER) return jsonChunksResponse(sessionFileChunks(session), 200, headers);
  return new Response(sessionFileText(session), { headers });
});

/** Sessions into the app, each to the user its file names. */
export const importToApp = route<AppParams>(async (request, params, principal) =>
  importResponse(request, await getStore(), { appName: appNameOf(params) }, principal),
);

/** Sessions into this user, whatever user the file names. */
export const importToUser = route<UserParams>(async (request, params, principal) =>
  importResponse(request, await getStore(), userRefOf(params), principal),
);
