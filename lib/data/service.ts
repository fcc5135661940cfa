import { databaseUrl } from '../config';
import { openDatabase, providerOf } from '../db';
import { migrateDatabase } from '../migrate';
import { PrismaSessionService } from '../session-service';

const globalForService = globalThis as unknown as { statehouseService?: Promise<PrismaSessionService> };

async function connect(url: string): Promise<PrismaSessionService> {
  // The embedded default migrates itself on first start; a PostgreSQL
  // server is migrated deliberately (npm run db:migrate).
  if (providerOf(url) === 'sqlite') await migrateDatabase(url);
  const db = await openDatabase(url);
  return new PrismaSessionService(db.client, db.provider);
}

/** The process-wide session service (kept on globalThis so dev reloads reuse one client). */
export function getSessionService(): Promise<PrismaSessionService> {
  globalForService.statehouseService ??= connect(databaseUrl()).catch((error: unknown) => {
    globalForService.statehouseService = undefined;
    throw error;
  });
  return globalForService.statehouseService;
}
