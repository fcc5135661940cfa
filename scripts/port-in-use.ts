// Whether a port already has a listener, asked the way the server will ask:
// by listening on it. `npm run open` and `npm start` say so in words before
// building, instead of a raw EADDRINUSE from the server after "Serving it on".
import { createServer } from 'node:net';

/** The message for a port that is taken, or null when the server can listen there. */
export async function portTakenMessage(host: string, port: number): Promise<string | null> {
  const code = await new Promise<string | null>((resolve) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'ERROR'));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(null)));
  });
  if (code === null) return null;
  if (code === 'EADDRINUSE')
    return `Port ${port} on ${host} is already in use (another server is listening there). Stop it, or choose another port: PORT=${port + 1} npm run open -- ...`;
  if (code === 'EACCES')
    return `Port ${port} on ${host} needs privileges this process does not have; choose a port above 1023 with PORT=...`;
  return `Cannot listen on ${host}:${port} (${code}).`;
}
