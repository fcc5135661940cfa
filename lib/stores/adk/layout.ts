// Every SQL store an ADK writes keeps four tables (sessions, events,
// app_states, user_states) keyed by app_name and user_id; families differ
// only in the names below, which default to adk-python's.
import type { AdkLayout } from './family';

export interface LayoutNames {
  sessionId: string;
  createTime: string;
  sessionUpdateTime: string;
  tierUpdateTime: string;
  eventOrder: string;
  eventColumns: string[];
  /** A column holding the event's JSON as text; null where events are spread over columns. */
  searchText: string | null;
}

const PYTHON_NAMES: LayoutNames = {
  sessionId: 'id',
  createTime: 'create_time',
  sessionUpdateTime: 'update_time',
  tierUpdateTime: 'update_time',
  eventOrder: 'timestamp',
  eventColumns: ['id', 'invocation_id', 'timestamp', 'event_data'],
  searchText: 'event_data',
};

export function adkLayout(differences: Partial<LayoutNames> = {}): AdkLayout {
  const names = { ...PYTHON_NAMES, ...differences };
  return {
    sessions: {
      table: 'sessions',
      appName: 'app_name',
      userId: 'user_id',
      id: names.sessionId,
      state: 'state',
      createTime: names.createTime,
      updateTime: names.sessionUpdateTime,
    },
    events: {
      table: 'events',
      id: 'id',
      appName: 'app_name',
      userId: 'user_id',
      sessionId: 'session_id',
      timestamp: names.eventOrder,
      columns: names.eventColumns,
      ...(names.searchText === null ? {} : { searchText: names.searchText }),
    },
    appStates: { table: 'app_states', appName: 'app_name', state: 'state', updateTime: names.tierUpdateTime },
    userStates: { table: 'user_states', appName: 'app_name', userId: 'user_id', state: 'state', updateTime: names.tierUpdateTime },
  };
}
