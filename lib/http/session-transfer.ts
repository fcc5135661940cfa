// Export and import of many sessions over HTTP: an app's or a user's
// sessions as JSON Lines (one ADK session file per line), and imports of
// such files (or of one session) with a preview first.
import type { ApiRequest } from './api-request';
import { z } from 'zod';
import type { Principal } from '../auth/principal';
import { MAX_IMPORT_BYTES, type ImportTarget } from '../commands/import-sessions';
import { importCommand } from '../commands/session-ops';
import { isSessionServiceError } from '../session-service/errors';
import { exportFileName, sessionLineChunks } from '../session-service/session-file';
import type { SessionStore } from '../session-service/store';
import { readBodyBytes } from './body';
import { resultOf } from './errors';
import { badRequest } from './problem';
import { parseQuery } from './query';
import { json } from './respond';

/** Streams the sessions one line at a time, so an app of many sessions is never held whole. */
export async function exportResponse(store: SessionStore, appName: string, userId?: string): Promise<Response> {
  const { sessions } = await store.listSessions({ appName, ...(userId === undefined ? {} : { userId }) });
  const encoder = new TextEncoder();
  let next = 0;
  // The line being written, a chunk of its events at a time.
  let line: Iterator<string> | null = null;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        const chunk = line?.next();
        if (chunk && !chunk.done) {
          controller.enqueue(encoder.encode(chunk.value));
          return;
        }
        line = null;
        const listed = sessions[next++];
        if (!listed) {
          controller.close();
          return;
        }
        // A session deleted since the list was read is left out, and so is one whose own row cannot be read (an ADK store's).
        const session = await store.getSession({ appName, userId: listed.userId, sessionId: listed.id }).catch((error: unknown) => {
          if (isSessionServiceError(error) && error.code === 'UNREADABLE') return null;
          throw error;
        });
        if (session) line = sessionLineChunks(session);
      }
    },
  });
  return new Response(body, {
    headers: {
      'Content-Type': 'application/jsonl; charset=utf-8',
      'Content-Disposition': `attachment; filename="${exportFileName(userId === undefined ? appName : `${appName}-${userId}`, 'jsonl')}"`,
    },
  });
}

const importQuery = z.object({
  dryRun: z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
  newIds: z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
  applySharedState: z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
  reason: z.string().max(500).optional(),
});

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Body: one ADK session file or JSON Lines of them. `?dryRun=false` writes
 * (all or nothing); anything else previews. Answers the report:
 * `{"items": [{"line", "sessionId", "userId", "events", "status", "problem"?, "skippedSharedKeys", "sharedChanges"}], "counts", "written"}`.
 * `?applySharedState=true` writes the events' app: and user: changes into the target's tiers; without it a session that has them is invalid.
 */
export async function importResponse(
  request: ApiRequest,
  store: SessionStore,
  target: ImportTarget,
  principal: Principal,
): Promise<Response> {
  const query = parseQuery(request, importQuery);
  let text: string;
  try {
    text = decoder.decode(await readBodyBytes(request, MAX_IMPORT_BYTES));
  } catch (error) {
    if (error instanceof TypeError) throw badRequest('body: not valid UTF-8');
    throw error;
  }
  const report = await importCommand(store, principal.name, {
    ...target,
    text,
    dryRun: query.dryRun !== 'false',
    newIds: query.newIds === 'true',
    applySharedState: query.applySharedState === 'true',
    reason: query.reason,
  });
  return json(resultOf(report));
}
