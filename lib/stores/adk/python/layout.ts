// The table layout adk-python's session services share: SqliteSessionService
// (sessions/sqlite_session_service.py) and DatabaseSessionService schema v1
// (sessions/schemas/v1.py) use the same table and column names.
import type { AdkLayout } from '../family';

export const PYTHON_LAYOUT: AdkLayout = {
  sessions: {
    table: 'sessions',
    appName: 'app_name',
    userId: 'user_id',
    id: 'id',
    state: 'state',
    createTime: 'create_time',
    updateTime: 'update_time',
  },
  events: {
    table: 'events',
    id: 'id',
    appName: 'app_name',
    userId: 'user_id',
    sessionId: 'session_id',
    timestamp: 'timestamp',
    columns: ['id', 'invocation_id', 'timestamp', 'event_data'],
    searchText: 'event_data',
  },
  appStates: { table: 'app_states', appName: 'app_name', state: 'state', updateTime: 'update_time' },
  userStates: { table: 'user_states', appName: 'app_name', userId: 'user_id', state: 'state', updateTime: 'update_time' },
};

export const PYTHON_TABLES = ['sessions', 'events', 'app_states', 'user_states'] as const;
