export { createNativeSessionStore, type NativeSessionStore } from './store';
export { type NativeStoreOptions } from './context';
export { SEARCH_COUNT_LIMIT } from '../../session-service/paging';
export type { Dialect } from './dialect';
