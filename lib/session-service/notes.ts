// Notes people leave on a session for the next shift (author, time, text).
// They are Statehouse's own, kept in its own database beside any store:
// keyed by the store's id ('native' for Statehouse's own sessions, else the
// configured id of an agent's store), never written into an agent's database.
// A note is never changed; removing one keeps it, with who removed it and
// when, so the notes are their own audit trail.
import type { Page } from './types';

/** The store id of Statehouse's own session tables. */
export const NATIVE_STORE_ID = 'native';

/** Which session a note is about. */
export interface NoteTarget {
  storeId: string;
  appName: string;
  userId: string;
  sessionId: string;
}

export interface SessionNote extends NoteTarget {
  id: number;
  author: string;
  text: string;
  /** Float seconds. */
  time: number;
  /** Set once the note was removed: who removed it and when. */
  removed: { by: string; time: number } | null;
}

export interface NoteSearch {
  storeId: string;
  /** Case-insensitive substring of the note's text or author. */
  text: string;
  appName?: string;
  limit?: number;
  offset?: number;
}

/** Every note written or removed, newest first, for the audit log. */
export interface NoteHistoryQuery {
  storeId: string;
  appName?: string;
  userId?: string;
  sessionId?: string;
  /** Who wrote or removed it. */
  actor?: string;
  /** Float seconds, inclusive. */
  since?: number;
  until?: number;
  limit?: number;
  offset?: number;
}

/** A session's notes in a list: how many it has and the newest one. */
export interface NoteDigest {
  count: number;
  latest: SessionNote;
}

export interface NoteStore {
  add(target: NoteTarget, note: { author: string; text: string }, time: number): Promise<SessionNote>;
  /** Null when the session has no such note (or it is removed already). */
  remove(target: NoteTarget, id: number, by: string, time: number): Promise<SessionNote | null>;
  /** The session's notes that are not removed, oldest first. */
  list(target: NoteTarget): Promise<SessionNote[]>;
  /** Per session (key `userId\0sessionId`) of one app: the count of its notes and the newest. */
  digests(storeId: string, appName: string, sessions: { userId: string; sessionId: string }[]): Promise<Map<string, NoteDigest>>;
  /** Notes (not removed) whose text or author contains the text, newest first. */
  search(query: NoteSearch): Promise<Page<SessionNote>>;
  /** Every note, removed ones included, newest first by the later of writing and removal. */
  history(query: NoteHistoryQuery): Promise<Page<SessionNote>>;
}

/** The key of a session in NoteStore.digests' answer. */
export const digestKey = (userId: string, sessionId: string) => `${userId}\u0000${sessionId}`;

/** Longest note, in characters. */
export const MAX_NOTE_LENGTH = 4000;
