import { requireViewer } from '../auth/server';
import type { PrismaSessionService } from '../session-service';
import { getSessionService } from './service';

/** The session service for page reads, only for someone allowed to read (local operator or signed-in viewer). */
export async function readerService(): Promise<PrismaSessionService> {
  await requireViewer();
  return getSessionService();
}
