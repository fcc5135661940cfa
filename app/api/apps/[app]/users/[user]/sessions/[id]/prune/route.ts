// POST /api/apps/{app}/users/{user}/sessions/{id}/prune — delete the session, the events of one
// invocation, or the events before a time. Admin only; a dry run (the default) counts and deletes nothing.
import { readJson } from '@/lib/http/body';
import { route } from '@/lib/http/handler';
import { parseWith } from '@/lib/http/issues';
import { otherMethods } from '@/lib/http/methods';
import { sessionRefOf, type SessionParams } from '@/lib/http/params';
import { json } from '@/lib/http/respond';
import { getStore } from '@/lib/services';
import { capability, type PruneTarget } from '@/lib/session-service/operations';
import { pruneInput, pruneOptions } from '@/lib/validation/session-ops';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/**
 * Body `{"target": "session" | "invocation" | "eventsBefore", "invocationId"?, "before"?,
 * "dryRun": true | false, "reason"}`. Answers `{"dryRun", "sessions", "events"}`: what would be
 * deleted, or what was. State is not rewound by deleting events.
 */
export const POST = route<SessionParams>(async (request, params, principal) => {
  const ref = sessionRefOf(params);
  const raw = (await readJson(request)) ?? null;
  const input = parseWith(pruneInput, raw);
  const options = parseWith(pruneOptions, raw);
  const target: PruneTarget =
    input.target === 'session'
      ? { kind: 'session', ref }
      : input.target === 'invocation'
        ? { kind: 'invocation', ref, invocationId: input.invocationId }
        : { kind: 'eventsBefore', ref, before: input.before };
  const count = await capability(await getStore(), 'prune')(target, { actor: principal.name, ...options });
  return json({ dryRun: options.dryRun, ...count });
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods('POST');
