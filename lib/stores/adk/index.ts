export { isRedisLocation, openAdkStore, type OpenAdkOptions } from './open';
export type { AdkSessionStore } from './base/store';
export { CannotReadStoreError } from './detect';
export type { AdkFamily, FamilyCodec, FamilyMatch, FamilyWrites } from './family';
export { ADK_FAMILIES } from './registry';
