// Which agent server the session page offers to send through: the one
// configured for the app of the served store, named by its URL (never its header).
import { agentServerFor } from '../agent-server/config';
import { agentServers } from '../config';
import { getStoreInfo } from '../services';

export async function agentServerShown(appName: string): Promise<string | null> {
  const server = agentServerFor(agentServers().servers, (await getStoreInfo()).id, appName);
  return server ? server.url : null;
}
