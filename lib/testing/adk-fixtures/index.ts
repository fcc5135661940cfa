export * from './scenario';
export { appendPythonSqliteEvent, writePythonSqliteStore, PY_SQLITE_DDL } from './python-sqlite';
export { writePythonDbStore, type PyDbClock, type PyDbOptions } from './python-db';
export { writeNativeScenario } from './native';
export { dumpAgentDatabase } from './dump';
