import { sqltag as sql } from '@prisma/client/runtime/client';
import { toNumber, toNumberOrNull } from '../stores/native/dialect';
import { invalidInput, SessionServiceError } from '../session-service/errors';
import { nowSeconds } from '../session-service/events';
import { VerifiedTokens } from './verified-tokens';
import type { SqlClient } from '../db/sql';
import { isRole, type Role } from './roles';
import { SignInThrottle } from './sign-in-throttle';
import { decoyPasswordHash, hashPassword, hashSecret, newSecret, verifyPassword } from './secrets';

export interface Account {
  id: number;
  name: string;
  role: Role;
  createTime: number;
  disabled: boolean;
}

export interface ApiTokenInfo {
  id: number;
  accountName: string;
  label: string;
  createTime: number;
  lastUseTime: number | null;
  revoked: boolean;
}

interface AccountRow {
  id: unknown;
  name: string;
  role: string;
  create_time: unknown;
  disabled_time: unknown;
}

interface TokenRow {
  id: unknown;
  account_name: string;
  label: string;
  create_time: unknown;
  last_use_time: unknown;
  revoke_time: unknown;
}

const ACCOUNT_NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;
export const MIN_PASSWORD_LENGTH = 12;
const MAX_PASSWORD_LENGTH = 1024;
/** A token's last use is written at most this often, so reads by scripts do not turn into writes. */
const LAST_USE_RESOLUTION_SECONDS = 60;

function accountOf(row: AccountRow): Account {
  if (!isRole(row.role)) throw new Error(`account ${row.name} has an unknown role "${row.role}"`);
  return {
    id: toNumber(row.id),
    name: row.name,
    role: row.role,
    createTime: toNumber(row.create_time),
    disabled: row.disabled_time !== null,
  };
}

function tokenOf(row: TokenRow): ApiTokenInfo {
  return {
    id: toNumber(row.id),
    accountName: row.account_name,
    label: row.label,
    createTime: toNumber(row.create_time),
    lastUseTime: toNumberOrNull(row.last_use_time),
    revoked: row.revoke_time !== null,
  };
}

export function checkAccountName(name: string): void {
  if (!ACCOUNT_NAME.test(name)) {
    throw invalidInput('Account name: 1-64 letters, digits, ".", "_", "@" or "-", starting with a letter or digit.');
  }
}

export function checkPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) throw invalidInput(`Password: at least ${MIN_PASSWORD_LENGTH} characters.`);
  if (password.length > MAX_PASSWORD_LENGTH) throw invalidInput(`Password: at most ${MAX_PASSWORD_LENGTH} characters.`);
}

const noAccount = (name: string) => new SessionServiceError('NOT_FOUND', `No account named ${name}.`);

const ACCOUNT_COLUMNS = sql`id, name, role, create_time, disabled_time`;
const TOKEN_SELECT = sql`SELECT t.id, a.name AS account_name, t.label, t.create_time, t.last_use_time, t.revoke_time
  FROM api_tokens t JOIN accounts a ON a.id = t.account_id`;

/**
 * Accounts, sign-in sessions and API tokens, on the same Prisma client as
 * the session service. Secrets are returned once, at creation, and stored
 * only as hashes.
 */
const MAX_TOUCHED_TOKENS = 10_000;

export class AccountStore {
  /** When this process last wrote (or tried to write) each token's last use. */
  private readonly touched = new Map<number, number>();
  private touching: Promise<void> = Promise.resolve();
  private readonly verified: VerifiedTokens<{ account: Account; tokenId: number; lastUse: number | null }>;

  /** The sign-in throttle's counts, in the same database (so shared by every server over it). */
  readonly throttle: SignInThrottle;

  constructor(private readonly client: SqlClient) {
    this.throttle = new SignInThrottle(client);
    this.verified = new VerifiedTokens(async () => {
      const rows = await this.client.$queryRaw<{ epoch: unknown }[]>(sql`SELECT epoch FROM auth_epoch WHERE id = 1`);
      return toNumber(rows[0]?.epoch ?? 0);
    });
  }

  async createAccount(input: { name: string; password: string; role: Role }): Promise<Account> {
    checkAccountName(input.name);
    checkPassword(input.password);
    const passwordHash = await hashPassword(input.password);
    const rows = await this.client.$queryRaw<AccountRow[]>(
      sql`INSERT INTO accounts (name, password_hash, role, create_time) VALUES (${input.name}, ${passwordHash}, ${input.role}, ${nowSeconds()})
          ON CONFLICT DO NOTHING RETURNING ${ACCOUNT_COLUMNS}`,
    );
    const row = rows[0];
    if (!row) throw new SessionServiceError('ALREADY_EXISTS', `An account named ${input.name} already exists.`);
    return accountOf(row);
  }

  /**
   * The account of a person an OpenID provider vouched for (`externalId`:
   * issuer and subject), created on first sign-in under `name`, its role set
   * to `role` at every sign-in. Null when `role` is null (none of their
   * groups has access): then their open sign-in sessions end too. A local
   * account of the same name is never taken over (ALREADY_EXISTS); a
   * disabled account stays disabled.
   */
  async signInExternal(input: { externalId: string; name: string; role: Role | null }): Promise<Account | null> {
    const [existing] = await this.client.$queryRaw<AccountRow[]>(
      sql`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE external_id = ${input.externalId}`,
    );
    if (input.role === null) {
      if (existing) await this.client.$executeRaw(sql`DELETE FROM login_sessions WHERE account_id = ${existing.id}`);
      return null;
    }
    if (existing) {
      const [row] = await this.client.$queryRaw<AccountRow[]>(
        sql`UPDATE accounts SET role = ${input.role} WHERE id = ${existing.id} RETURNING ${ACCOUNT_COLUMNS}`,
      );
      return row && row.disabled_time === null ? accountOf(row) : null;
    }
    checkAccountName(input.name);
    // Nobody knows this password: the account signs in through its provider only.
    const passwordHash = await hashPassword(newSecret('session'));
    const rows = await this.client.$queryRaw<AccountRow[]>(
      sql`INSERT INTO accounts (name, password_hash, role, create_time, external_id)
          VALUES (${input.name}, ${passwordHash}, ${input.role}, ${nowSeconds()}, ${input.externalId})
          ON CONFLICT DO NOTHING RETURNING ${ACCOUNT_COLUMNS}`,
    );
    const row = rows[0];
    if (!row) throw new SessionServiceError('ALREADY_EXISTS', `An account named ${input.name} exists already and is not this person's.`);
    return accountOf(row);
  }

  async listAccounts(): Promise<Account[]> {
    const rows = await this.client.$queryRaw<AccountRow[]>(sql`SELECT ${ACCOUNT_COLUMNS} FROM accounts ORDER BY name`);
    return rows.map(accountOf);
  }

  async findAccount(name: string): Promise<Account | null> {
    const rows = await this.client.$queryRaw<AccountRow[]>(sql`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE name = ${name}`);
    return rows[0] ? accountOf(rows[0]) : null;
  }

  async setRole(name: string, role: Role): Promise<Account> {
    const rows = await this.client.$queryRaw<AccountRow[]>(
      sql`UPDATE accounts SET role = ${role} WHERE name = ${name} RETURNING ${ACCOUNT_COLUMNS}`,
    );
    this.verified.forgetAll();
    if (!rows[0]) throw noAccount(name);
    return accountOf(rows[0]);
  }

  /** A new password also signs the account out everywhere. */
  async setPassword(name: string, password: string): Promise<void> {
    checkPassword(password);
    const passwordHash = await hashPassword(password);
    await this.client.$transaction(async (tx) => {
      const rows = await tx.$queryRaw<{ id: unknown }[]>(
        sql`UPDATE accounts SET password_hash = ${passwordHash} WHERE name = ${name} RETURNING id`,
      );
      if (!rows[0]) throw noAccount(name);
      await tx.$executeRaw(sql`DELETE FROM login_sessions WHERE account_id = ${toNumber(rows[0].id)}`);
    });
  }

  /** A disabled account cannot sign in, and its sessions and tokens stop working at once. */
  async setDisabled(name: string, disabled: boolean): Promise<Account> {
    const account = await this.client.$transaction(async (tx) => {
      const rows = await tx.$queryRaw<AccountRow[]>(
        sql`UPDATE accounts SET disabled_time = ${disabled ? nowSeconds() : null} WHERE name = ${name} RETURNING ${ACCOUNT_COLUMNS}`,
      );
      const row = rows[0];
      if (!row) throw noAccount(name);
      if (disabled) await tx.$executeRaw(sql`DELETE FROM login_sessions WHERE account_id = ${toNumber(row.id)}`);
      return accountOf(row);
    });
    this.verified.forgetAll();
    return account;
  }

  /** Removes the account with its sessions and tokens; the audit trail keeps its name. False when there was none. */
  async deleteAccount(name: string): Promise<boolean> {
    const deleted = (await this.client.$executeRaw(sql`DELETE FROM accounts WHERE name = ${name}`)) > 0;
    this.verified.forgetAll();
    return deleted;
  }

  /** The account when the password is right and the account enabled; null otherwise, in the same time either way. */
  async verifyCredentials(name: string, password: string): Promise<Account | null> {
    const rows = await this.client.$queryRaw<(AccountRow & { password_hash: string })[]>(
      sql`SELECT ${ACCOUNT_COLUMNS}, password_hash FROM accounts WHERE name = ${name}`,
    );
    const row = rows[0];
    const matches = await verifyPassword(password, row?.password_hash ?? (await decoyPasswordHash()));
    if (!row || !matches || row.disabled_time !== null) return null;
    return accountOf(row);
  }

  async startSession(accountId: number, lifetimeSeconds: number): Promise<{ secret: string; expireTime: number }> {
    const secret = newSecret('session');
    const now = nowSeconds();
    const expireTime = now + lifetimeSeconds;
    await this.client.$executeRaw(
      sql`INSERT INTO login_sessions (token_hash, account_id, create_time, expire_time)
          VALUES (${hashSecret(secret)}, ${accountId}, ${now}, ${expireTime})`,
    );
    return { secret, expireTime };
  }

  async sessionAccount(secret: string): Promise<Account | null> {
    const rows = await this.client.$queryRaw<AccountRow[]>(
      sql`SELECT a.id, a.name, a.role, a.create_time, a.disabled_time FROM login_sessions s JOIN accounts a ON a.id = s.account_id
          WHERE s.token_hash = ${hashSecret(secret)} AND s.expire_time > ${nowSeconds()} AND a.disabled_time IS NULL`,
    );
    return rows[0] ? accountOf(rows[0]) : null;
  }

  async endSession(secret: string): Promise<void> {
    const now = nowSeconds();
    await this.client.$executeRaw(sql`DELETE FROM login_sessions WHERE token_hash = ${hashSecret(secret)} OR expire_time <= ${now}`);
  }

  async createToken(accountName: string, label: string): Promise<{ secret: string; token: ApiTokenInfo }> {
    const trimmed = label.trim();
    if (!trimmed || trimmed.length > 100) throw invalidInput('Token label: 1-100 characters, e.g. "ci" or "agent-prod".');
    const account = await this.findAccount(accountName);
    if (!account) throw noAccount(accountName);
    const secret = newSecret('token');
    const rows = await this.client.$queryRaw<{ id: unknown }[]>(
      sql`INSERT INTO api_tokens (account_id, label, token_hash, create_time)
          VALUES (${account.id}, ${trimmed}, ${hashSecret(secret)}, ${nowSeconds()}) RETURNING id`,
    );
    const id = toNumber(rows[0]?.id);
    const [token] = await this.client.$queryRaw<TokenRow[]>(sql`${TOKEN_SELECT} WHERE t.id = ${id}`);
    if (!token) throw new Error('token vanished after insert');
    return { secret, token: tokenOf(token) };
  }

  async listTokens(accountName?: string): Promise<ApiTokenInfo[]> {
    const rows = await this.client.$queryRaw<TokenRow[]>(
      accountName === undefined ? sql`${TOKEN_SELECT} ORDER BY t.id` : sql`${TOKEN_SELECT} WHERE a.name = ${accountName} ORDER BY t.id`,
    );
    return rows.map(tokenOf);
  }

  async revokeToken(id: number): Promise<ApiTokenInfo> {
    // Revoking twice keeps the first time.
    await this.client.$executeRaw(sql`UPDATE api_tokens SET revoke_time = ${nowSeconds()} WHERE id = ${id} AND revoke_time IS NULL`);
    this.verified.forgetAll();
    const [row] = await this.client.$queryRaw<TokenRow[]>(sql`${TOKEN_SELECT} WHERE t.id = ${id}`);
    if (!row) throw new SessionServiceError('NOT_FOUND', `No API token with id ${id}.`);
    return tokenOf(row);
  }

  /** The token's account; from this process's cache of verified tokens when the auth epoch has not moved (verified-tokens.ts). */
  async tokenAccount(secret: string): Promise<Account | null> {
    const hash = hashSecret(secret);
    const cached = await this.verified.get(hash);
    if (cached) {
      this.touchToken(cached.tokenId, cached.lastUse);
      return cached.account;
    }
    const readAt = this.verified.now();
    const rows = await this.client.$queryRaw<(AccountRow & { token_id: unknown; last_use_time: unknown; epoch: unknown })[]>(
      sql`SELECT a.id, a.name, a.role, a.create_time, a.disabled_time, t.id AS token_id, t.last_use_time,
            (SELECT epoch FROM auth_epoch WHERE id = 1) AS epoch
          FROM api_tokens t JOIN accounts a ON a.id = t.account_id
          WHERE t.token_hash = ${hash} AND t.revoke_time IS NULL AND a.disabled_time IS NULL`,
    );
    const row = rows[0];
    if (!row) return null;
    const account = accountOf(row);
    const tokenId = toNumber(row.token_id);
    const lastUse = toNumberOrNull(row.last_use_time);
    this.verified.set(hash, { account, tokenId, lastUse }, toNumber(row.epoch ?? 0), readAt);
    this.touchToken(tokenId, lastUse);
    return account;
  }

  /**
   * Records a token's use after the request that used it, at most once a
   * window per token and process, and only as well as it can: a read must
   * neither wait for nor fail on a write lock another process holds.
   */
  private touchToken(id: number, lastUse: number | null): void {
    const now = nowSeconds();
    const due = (time: number | null | undefined) => time == null || now - time > LAST_USE_RESOLUTION_SECONDS;
    if (!due(lastUse) || !due(this.touched.get(id))) return;
    this.touched.delete(id);
    this.touched.set(id, now);
    if (this.touched.size > MAX_TOUCHED_TOKENS) this.touched.delete(this.touched.keys().next().value ?? id);
    const write = () => this.client.$executeRaw(sql`UPDATE api_tokens SET last_use_time = ${now} WHERE id = ${id}`);
    this.touching = this.touching
      .then(() => new Promise((resolve) => setTimeout(resolve, 0)))
      .then(write)
      .then(
        () => undefined,
        (error: unknown) =>
          console.warn(
            `Could not record an API token's last use: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
          ),
      );
  }

  /** Waits for the last-use writes under way (tests, shutdown). */
  settled(): Promise<void> {
    return this.touching;
  }
}
