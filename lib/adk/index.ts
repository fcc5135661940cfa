export { PrismaSessionService, revisionOf, type PrismaSessionServiceOptions } from './prisma-session-service';
