// Statehouse through the door an adk-js agent uses: lib/agent-service's StatehouseSessionService.
import type { Session } from '@google/adk';
import { StatehouseSessionService } from '../../lib/agent-service/statehouse-session-service';
import { adkServiceDoor, DoorTarget, rawSeeding } from './door';

export function statehouseAdkTarget(provider: 'sqlite' | 'postgresql', url: string): DoorTarget<Session> {
  const service = new StatehouseSessionService({ databaseUrl: url, migrate: true });
  // The first read opens and migrates the database the fixtures go into.
  const seeding = rawSeeding(provider, url, () => service.getSession({ appName: '-', userId: '-', sessionId: '-' }));
  return new DoorTarget(adkServiceDoor('statehouse-adk', provider, service, seeding, () => service.close()));
}
