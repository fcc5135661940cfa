// Runs after the web server has started (Playwright starts `webServer` before
// global setup), so it must leave this run's database alone: the server's
// command created and migrated it already.
import { removeStaleE2eDatabases } from './support/database';

export default function globalSetup(): void {
  const removed = removeStaleE2eDatabases();
  if (removed.length > 0) console.log(`Removed ${removed.length} file(s) of earlier end-to-end databases.`);
}
