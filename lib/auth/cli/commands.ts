import { isRole, ROLES, type Role } from '../roles';
import type { Account, AccountStore, ApiTokenInfo } from '../store';

/** What a command needs from its surroundings: output, and a password when one is asked for. */
export interface CliIo {
  print(line: string): void;
  readPassword(prompt: string): Promise<string>;
}

export const USAGE = `Usage: npm run accounts -- <command>

  create <name> --role viewer|support|admin   create an account (asks for its password)
  list                                        list accounts
  set-role <name> viewer|support|admin        change an account's role
  set-password <name>                         set a new password (signs the account out everywhere)
  disable <name> | enable <name>              stop or restore an account's access (disable signs it out)
  token create <name> [--label <label>]       create an API token for scripts (shown once)
  token list [<name>]                         list API tokens
  token revoke <id>                           revoke an API token

The password is read from STATEHOUSE_PASSWORD when set, else asked for.
The database is DATABASE_URL (default: the embedded SQLite file).`;

export class UsageError extends Error {
  override name = 'UsageError';
}

function takeOption(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  if (index === -1) return undefined;
  const value = args[index + 1];
  if (value === undefined || value.startsWith('--')) throw new UsageError(`${name} needs a value.`);
  args.splice(index, 2);
  return value;
}

function role(value: string | undefined): Role {
  if (!isRole(value)) throw new UsageError(`The role must be one of ${ROLES.join(', ')}${value ? `, not "${value}"` : ''}.`);
  return value;
}

function positional(args: string[], count: number, what: string): string[] {
  const unknown = args.find((arg) => arg.startsWith('--'));
  if (unknown) throw new UsageError(`Unknown option ${unknown}.`);
  if (args.length !== count) throw new UsageError(`Expected ${what}.`);
  return args;
}

const when = (seconds: number | null) => (seconds === null ? 'never' : new Date(seconds * 1000).toISOString());

function accountLine(account: Account): string {
  return `${account.name}\t${account.role}${account.disabled ? '\tdisabled' : ''}`;
}

function tokenLine(token: ApiTokenInfo): string {
  const state = token.revoked ? 'revoked' : `last used ${when(token.lastUseTime)}`;
  return `${token.id}\t${token.accountName}\t${token.label}\tcreated ${when(token.createTime)}\t${state}`;
}

async function newPassword(io: CliIo, name: string): Promise<string> {
  const first = await io.readPassword(`Password for ${name}: `);
  const again = await io.readPassword('Again: ');
  if (first !== again) throw new UsageError('The two passwords differ; nothing was changed.');
  return first;
}

/** Runs one `npm run accounts` command; domain errors propagate with their messages. */
export async function runAccountsCommand(argv: readonly string[], store: AccountStore, io: CliIo): Promise<void> {
  const [command, ...rest] = argv;
  const args = [...rest];
  switch (command) {
    case 'create': {
      const accountRole = role(takeOption(args, '--role'));
      const [name = ''] = positional(args, 1, 'create <name> --role <role>');
      const account = await store.createAccount({ name, role: accountRole, password: await newPassword(io, name) });
      io.print(`Created ${account.name} (${account.role}).`);
      return;
    }
    case 'list': {
      positional(args, 0, 'no arguments');
      const accounts = await store.listAccounts();
      if (accounts.length === 0) io.print('No accounts yet.');
      for (const account of accounts) io.print(accountLine(account));
      return;
    }
    case 'set-role': {
      const [name = '', value] = positional(args, 2, 'set-role <name> <role>');
      io.print(`${accountLine(await store.setRole(name, role(value)))}`);
      return;
    }
    case 'set-password': {
      const [name = ''] = positional(args, 1, 'set-password <name>');
      await store.setPassword(name, await newPassword(io, name));
      io.print(`New password set for ${name}; its sign-in sessions were ended.`);
      return;
    }
    case 'disable':
    case 'enable': {
      const [name = ''] = positional(args, 1, `${command} <name>`);
      io.print(accountLine(await store.setDisabled(name, command === 'disable')));
      return;
    }
    case 'token':
      return runTokenCommand(args, store, io);
    case undefined:
    case 'help':
    case '--help':
      io.print(USAGE);
      return;
    default:
      throw new UsageError(`Unknown command "${command}".`);
  }
}

async function runTokenCommand(args: string[], store: AccountStore, io: CliIo): Promise<void> {
  const [sub, ...rest] = args;
  const remaining = [...rest];
  switch (sub) {
    case 'create': {
      const label = takeOption(remaining, '--label') ?? 'api';
      const [name = ''] = positional(remaining, 1, 'token create <name> [--label <label>]');
      const { secret, token } = await store.createToken(name, label);
      io.print(`Token ${token.id} for ${token.accountName} (${token.label}). It is shown only now; keep it secret:`);
      io.print(secret);
      return;
    }
    case 'list': {
      const names = positional(remaining, remaining.length > 0 ? 1 : 0, 'token list [<name>]');
      const tokens = await store.listTokens(names[0]);
      if (tokens.length === 0) io.print('No API tokens.');
      for (const token of tokens) io.print(tokenLine(token));
      return;
    }
    case 'revoke': {
      const [id = ''] = positional(remaining, 1, 'token revoke <id>');
      if (!/^\d+$/.test(id)) throw new UsageError(`A token id is a number (see token list), not "${id}".`);
      io.print(`Revoked: ${tokenLine(await store.revokeToken(Number(id)))}`);
      return;
    }
    default:
      throw new UsageError(sub ? `Unknown token command "${sub}".` : 'token needs create, list or revoke.');
  }
}
