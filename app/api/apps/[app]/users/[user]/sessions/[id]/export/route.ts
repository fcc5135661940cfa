// GET /api/apps/{app}/users/{user}/sessions/{id}/export — the session as ADK's session file
// (what `adk run --save_session` writes and `adk run --resume` loads), as a download.
import { route } from '@/lib/http/handler';
import { otherMethods } from '@/lib/http/methods';
import { sessionRefOf, type SessionParams } from '@/lib/http/params';
import { getStore } from '@/lib/services';
import { sessionNotFound } from '@/lib/session-service/errors';
import { exportFileName, sessionFileText } from '@/lib/session-service/session-file';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const GET = route<SessionParams>(async (_request, params) => {
  const ref = sessionRefOf(params);
  const session = await (await getStore()).getSession(ref);
  if (!session) throw sessionNotFound(ref.sessionId);
  return new Response(sessionFileText(session), {
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Disposition': `attachment; filename="${exportFileName(ref.sessionId, 'session.json')}"`,
    },
  });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET');
