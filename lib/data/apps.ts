import type { AppSummary } from '../session-service';
import { getSessionService } from './service';

/** Every app with sessions or shared state, by name. */
export async function listApps(): Promise<AppSummary[]> {
  const service = await getSessionService();
  return service.listApps();
}
