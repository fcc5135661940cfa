import { errorEventCounts } from './error-events';
import type { SqlClient } from '../../db/sql';
import type {
  AppendOptions,
  AppendResult,
  CreateSessionRequest,
  DataScope,
  EventQuery,
  KeyHistoryRequest,
  ListSessionsRequest,
  SessionList,
  PageRequest,
  SessionRef,
  SessionSearch,
  SessionStore,
  StateEdit,
  UserListRequest,
} from '../../session-service/store';
import type {
  AppSummary,
  GetSessionConfig,
  NewEvent,
  Page,
  Session,
  SessionSummary,
  SessionTiers,
  StateChange,
  StateEntry,
  StoredEvent,
  UserSummary,
} from '../../session-service/types';
import { StoreContext, type NativeStoreOptions } from './context';
import type { Dialect } from './dialect';
import * as history from './history';
import * as lists from './lists';
import * as sessionReads from './session-reads';
import * as writes from './writes';
import { findDocs } from './search-docs';
import type { FindRequest, FindResult } from '../../session-service/search';
import type { SessionOperations } from '../../session-service/operations';
import { NativeSessionOperations } from './session-operations';
import { NativeTestNamespaces } from './test-namespaces';

/**
 * ADK's session service on a Prisma client (SQLite or PostgreSQL through
 * driver adapters). Every write is one transaction; appends are guarded by a
 * compare-and-swap on the session's revision, shared tiers by per-key rows.
 */
export class NativeSessionStore implements SessionStore {
  private readonly context: StoreContext;

  private readonly operations: NativeSessionOperations;

  /** Test kits' namespaces: the only data clearing may remove (test-namespaces.ts). */
  readonly testNamespaces: NativeTestNamespaces;

  constructor(client: SqlClient, dialect: Dialect, options: NativeStoreOptions = {}) {
    this.context = new StoreContext(client, dialect, options);
    this.operations = new NativeSessionOperations(client, dialect);
    this.testNamespaces = new NativeTestNamespaces(this.context);
  }

  // Whole-session operations (session-operations.ts).
  forkSession: SessionOperations['forkSession'] = (request, audit) => this.operations.forkSession(request, audit);
  importSessions: SessionOperations['importSessions'] = (copies, audit) => this.operations.importSessions(copies, audit);
  getSessionMeta: SessionOperations['getSessionMeta'] = (ref) => this.operations.getSessionMeta(ref);
  setSessionMeta: SessionOperations['setSessionMeta'] = (ref, edit, audit) => this.operations.setSessionMeta(ref, edit, audit);
  prune: SessionOperations['prune'] = (target, options) => this.operations.prune(target, options);
  listOperations: SessionOperations['listOperations'] = (query) => this.operations.listOperations(query);

  createSession(request: CreateSessionRequest, options: AppendOptions = {}): Promise<Session> {
    return writes.createSession(this.context, request, options);
  }

  getSession(ref: SessionRef, config: GetSessionConfig = {}): Promise<Session | null> {
    return sessionReads.getSession(this.context, ref, config);
  }

  listSessions(request: ListSessionsRequest): Promise<SessionList> {
    return lists.listSessions(this.context, request);
  }

  deleteSession(ref: SessionRef): Promise<void> {
    return writes.deleteSession(this.context, ref);
  }

  clearData(scope: DataScope): Promise<void> {
    return writes.clearData(this.context, scope);
  }

  append(ref: SessionRef, newEvent: NewEvent, options: AppendOptions = {}): Promise<AppendResult> {
    return writes.append(this.context, ref, newEvent, options);
  }

  listApps(): Promise<AppSummary[]> {
    return lists.listApps(this.context);
  }

  getAppSummary(appName: string): Promise<AppSummary | null> {
    return lists.getAppSummary(this.context, appName);
  }

  listUsers(appName: string, page?: UserListRequest): Promise<Page<UserSummary>> {
    return lists.listUsers(this.context, appName, page);
  }

  searchSessions(search: SessionSearch): Promise<Page<SessionSummary>> {
    return lists.searchSessions(this.context, search);
  }

  errorEventCounts(appName: string, sessions: { userId: string; sessionId: string }[]): Promise<Map<string, number>> {
    return errorEventCounts(this.context, appName, sessions);
  }

  find(request: FindRequest): Promise<FindResult> {
    return this.context.read((tx) => findDocs(tx, this.context.dialect, 'native', request));
  }

  getSessionSummary(ref: SessionRef): Promise<SessionSummary | null> {
    return sessionReads.getSessionSummary(this.context, ref);
  }

  getSessionTiers(ref: SessionRef): Promise<SessionTiers | null> {
    return sessionReads.getSessionTiers(this.context, ref);
  }

  getAppState(appName: string): Promise<StateEntry[]> {
    return sessionReads.getAppState(this.context, appName);
  }

  getUserState(appName: string, userId: string): Promise<StateEntry[]> {
    return sessionReads.getUserState(this.context, appName, userId);
  }

  listEvents(ref: SessionRef, query: EventQuery = {}): Promise<Page<StoredEvent>> {
    return sessionReads.listEvents(this.context, ref, query);
  }

  listEventChanges(ref: SessionRef, seqs: number[]): Promise<StateChange[]> {
    return history.listEventChanges(this.context, ref, seqs);
  }

  getKeyHistory(request: KeyHistoryRequest): Promise<Page<StateChange>> {
    return history.getKeyHistory(this.context, request);
  }

  getUserHistory(appName: string, userId: string, page?: PageRequest & { since?: number }): Promise<Page<StateChange>> {
    return history.getUserHistory(this.context, appName, userId, page);
  }

  getStateAsOf(ref: SessionRef, seq: number): Promise<SessionTiers | null> {
    return history.getStateAsOf(this.context, ref, seq);
  }

  editState(edit: StateEdit): Promise<StateEntry[]> {
    return writes.editState(this.context, edit);
  }
}
