export { NativeSessionStore, SEARCH_COUNT_LIMIT, type ServiceOptions as NativeStoreOptions } from './store';
export type { Dialect } from './dialect';
