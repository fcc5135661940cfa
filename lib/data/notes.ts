// Reads of notes on sessions for pages and search: each for the signed-in
// viewer, about the served store's sessions.
import { requireViewer } from '../current-principal';
import { getNotes } from '../services';
import type { NoteDigest, SessionNote } from '../session-service/notes';
import type { SessionRef } from '../session-service/store';
import type { Page } from '../session-service/types';

/** The session's notes, oldest first. */
export async function getSessionNotes(ref: SessionRef): Promise<SessionNote[]> {
  await requireViewer();
  const { notes, storeId } = await getNotes();
  return notes.list({ storeId, ...ref });
}

/** Per session of one app (key: digestKey(userId, sessionId)): how many notes it has and the newest. */
export async function getNoteDigests(appName: string, sessions: { userId: string; sessionId: string }[]): Promise<Map<string, NoteDigest>> {
  await requireViewer();
  const { notes, storeId } = await getNotes();
  return notes.digests(storeId, appName, sessions);
}

export interface NoteSearchRequest {
  /** Case-insensitive substring of a note's text or author. */
  text: string;
  /** Only this app's sessions. */
  appName?: string;
  limit?: number;
  offset?: number;
}

/** Notes on the served store's sessions that contain the text (newest first): for the header search and the search page. */
export async function searchNotes(request: NoteSearchRequest): Promise<Page<SessionNote>> {
  await requireViewer();
  const { notes, storeId } = await getNotes();
  return notes.search({ storeId, ...request });
}
