// The table layout adk-python's session services share: SqliteSessionService
// (sessions/sqlite_session_service.py) and DatabaseSessionService schema v1
// (sessions/schemas/v1.py) use the same table and column names.
import { adkLayout } from '../layout';

export const PYTHON_LAYOUT = adkLayout();

export const PYTHON_TABLES = ['sessions', 'events', 'app_states', 'user_states'] as const;
