export { NativeSessionStore } from './store';
export { SEARCH_COUNT_LIMIT, type NativeStoreOptions } from './context';
export type { Dialect } from './dialect';
