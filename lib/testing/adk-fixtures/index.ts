export * from './scenario';
export * from './registry';
export { appendPythonSqliteEvent, writePythonSqliteStore, PY_SQLITE_DDL } from './python-sqlite';
export { writePythonDbStore, type PyDbClock, type PyDbOptions } from './python-db';
export { adkJsService, writeAdkJsFixture, writeAdkJsScenario, type AdkJsFixture } from './adk-js';
export { RustStoreWriter, rfc3339, writeRustFixture, writeRustScenario } from './adk-rust';
export { writeNativeScenario } from './native';
export { dumpAgentDatabase } from './dump';
export { longSessionEvent, writeLongPythonSqliteSession, type LongSessionOptions } from './long-session';
