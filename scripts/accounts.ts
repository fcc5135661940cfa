// npm run accounts -- <command>: manage sign-in accounts and API tokens for
// protected mode (lib/auth/cli/commands.ts has the commands).
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { runAccountsCommand, UsageError, USAGE, type CliIo } from '../lib/auth/cli/commands';
import { databaseUrl } from '../lib/config';
import { redactUrl } from '../lib/db';
import { openServices } from '../lib/services';
import { isSessionServiceError } from '../lib/session-service/errors';

/** Asks on the terminal without echoing what is typed; STATEHOUSE_PASSWORD answers instead when set. */
function readPassword(prompt: string): Promise<string> {
  const fromEnv = process.env.STATEHOUSE_PASSWORD;
  if (fromEnv !== undefined) return Promise.resolve(fromEnv);
  if (!process.stdin.isTTY) {
    return Promise.reject(new UsageError('No terminal to ask for a password on: set STATEHOUSE_PASSWORD.'));
  }
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (!muted) process.stdout.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  return new Promise((resolve) => {
    rl.question(prompt, (answer) => {
      rl.close();
      process.stdout.write('\n');
      resolve(answer);
    });
    muted = true;
  });
}

const io: CliIo = { print: (line) => console.log(line), readPassword };
const url = databaseUrl();

try {
  const services = await openServices(url);
  try {
    await runAccountsCommand(process.argv.slice(2), services.accounts, io);
  } finally {
    await services.close();
  }
} catch (error) {
  if (error instanceof UsageError) console.error(`${error.message}\n\n${USAGE}`);
  else if (isSessionServiceError(error)) console.error(error.message);
  else console.error(redactUrl(error instanceof Error ? error.message : String(error)));
  process.exitCode = error instanceof UsageError ? 2 : 1;
}
