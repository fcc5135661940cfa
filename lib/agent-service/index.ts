export { StatehouseSessionService, revisionOf, type StatehouseSessionServiceOptions } from './statehouse-session-service';
export { HttpSessionService, type HttpSessionServiceOptions } from './http-session-service';
import { StatehouseSessionService, type StatehouseSessionServiceOptions } from './statehouse-session-service';

/** @deprecated The drop-in's former name: use StatehouseSessionService. */
export const PrismaSessionService = StatehouseSessionService;
/** @deprecated The drop-in's former name: use StatehouseSessionService. */
export type PrismaSessionService = StatehouseSessionService;
/** @deprecated The former name of StatehouseSessionServiceOptions. */
export type PrismaSessionServiceOptions = StatehouseSessionServiceOptions;
