export * from './errors';
export * from './scope';
export * from './service';
export * from './types';
export { PrismaSessionService, SEARCH_COUNT_LIMIT, type ServiceOptions } from './prisma-service';
export type { Dialect } from './dialect';
export type { SqlClient, SqlExecutor } from './sql';
export { completeEvent, nowSeconds } from './events';
