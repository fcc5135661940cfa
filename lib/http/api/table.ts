// Every /api route in one table: pattern → method → handler. Next serves the
// table through app/api/**/route.ts (one line each: routeHandlers below); the
// server door dispatches to it directly (matchApiRoute, ./match.ts). Nothing
// here imports Next.
import type { ApiRequest } from '../api-request';
import type { ServedMethod } from '../methods';
import { listSends, sendMessage } from './agent';
import { listAppNames, listApps, listUsers, searchSessions } from './apps';
import { appendEvent, getEvent, getTimeline, getTimelinePosition, getValue, listEvents } from './events';
import { getKeyHistory, getUserHistory, listOperations } from './history';
import type { PatternParams, PathParams } from './pattern';
import { addNote, listNotes, removeNote } from './notes';
import { renderPreview } from './render';
import { find } from './search';
import { createSession, createSessionWithId, deleteSession, getSession, listSessions, patchSession } from './sessions';
import { editSessionMeta, forkSession, getSessionMeta, pruneIdleSessions, pruneSession, rewind } from './session-ops';
import { exportAudit } from './audit';
import { editAppState, editUserState, getAppState, getAppStateValue, getSessionState, getUserState, getUserStateValue } from './state';
import { clearApp, clearUser, listTestNamespaces, markTestNamespace, releaseTestNamespace } from './test-namespaces';
import { exportApp, exportSession, exportUser, importToApp, importToUser } from './transfer';

/** A route handler as Next calls it: the request, and the path's parameters (a Promise, decoded once). */
export type ApiHandler<P = PathParams> = (request: ApiRequest, context: { params: Promise<P> }) => Promise<Response>;

type Table<T> = { [P in keyof T & string]: Partial<Record<ServedMethod, ApiHandler<PatternParams<P>>>> };

/** The table, with each handler checked against its pattern's parameters. */
function table<T extends Table<T>>(routes: T): T {
  return routes;
}

const SESSION = '/api/apps/:app/users/:user/sessions/:id';

export const API = table({
  '/api/list-apps': { GET: listAppNames },
  '/api/apps': { GET: listApps },
  '/api/audit': { GET: exportAudit },
  '/api/render': { POST: renderPreview },
  '/api/search': { GET: find },
  '/api/test-namespaces': { GET: listTestNamespaces, POST: markTestNamespace, DELETE: releaseTestNamespace },
  '/api/apps/:app': { DELETE: clearApp },
  '/api/apps/:app/state': { GET: getAppState, PATCH: editAppState },
  '/api/apps/:app/state/value': { GET: getAppStateValue },
  '/api/apps/:app/users': { GET: listUsers },
  '/api/apps/:app/sessions': { GET: searchSessions },
  '/api/apps/:app/history': { GET: getKeyHistory },
  '/api/apps/:app/operations': { GET: listOperations },
  '/api/apps/:app/prune': { POST: pruneIdleSessions },
  '/api/apps/:app/export': { GET: exportApp },
  '/api/apps/:app/import': { POST: importToApp },
  '/api/apps/:app/users/:user': { DELETE: clearUser },
  '/api/apps/:app/users/:user/state': { GET: getUserState, PATCH: editUserState },
  '/api/apps/:app/users/:user/state/value': { GET: getUserStateValue },
  '/api/apps/:app/users/:user/history': { GET: getUserHistory },
  '/api/apps/:app/users/:user/export': { GET: exportUser },
  '/api/apps/:app/users/:user/import': { POST: importToUser },
  '/api/apps/:app/users/:user/sessions': { GET: listSessions, POST: createSession },
  [SESSION]: { POST: createSessionWithId, GET: getSession, PATCH: patchSession, DELETE: deleteSession },
  [`${SESSION}/events`]: { GET: listEvents, POST: appendEvent },
  [`${SESSION}/events/:seq`]: { GET: getEvent },
  [`${SESSION}/state`]: { GET: getSessionState },
  [`${SESSION}/timeline`]: { GET: getTimeline },
  [`${SESSION}/timeline/position`]: { GET: getTimelinePosition },
  [`${SESSION}/value`]: { GET: getValue },
  [`${SESSION}/export`]: { GET: exportSession },
  [`${SESSION}/fork`]: { POST: forkSession },
  [`${SESSION}/meta`]: { GET: getSessionMeta, PATCH: editSessionMeta },
  [`${SESSION}/prune`]: { POST: pruneSession },
  [`${SESSION}/rewind`]: { POST: rewind },
  [`${SESSION}/agent/send`]: { POST: sendMessage },
  [`${SESSION}/agent/sends`]: { GET: listSends },
  [`${SESSION}/notes`]: { GET: listNotes, POST: addNote },
  [`${SESSION}/notes/:note`]: { DELETE: removeNote },
});

export type ApiPattern = keyof typeof API;

export interface ApiRoute {
  method: ServedMethod;
  pattern: ApiPattern;
  handler: ApiHandler;
}

/** The table as a list of `{ method, pattern, handler }` entries. */
export const API_ROUTES: readonly ApiRoute[] = Object.entries(API).flatMap(([pattern, methods]) =>
  Object.entries(methods).map(([method, handler]) => ({
    method: method as ServedMethod,
    pattern: pattern as ApiPattern,
    handler: handler as ApiHandler,
  })),
);
