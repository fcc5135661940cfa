// The send log, in Statehouse's own database (table agent_sends): every
// message sent to an agent from the console, who sent it, and how it ended.
// A send is logged before the agent is called (a database that cannot log it
// refuses the send) and closed when it ends.
import { sqltag as sql } from '@prisma/client/runtime/client';
import type { SqlClient } from '../db/sql';
import type { SessionRef } from '../session-service/store';

export type SendOutcome = 'sending' | 'done' | 'failed' | 'cancelled';

export interface SendDetail {
  /** Ids of the events the agent streamed, in order. */
  eventIds?: string[];
  error?: { code: string; message: string };
}

export interface SendRecord extends SessionRef {
  id: number;
  storeId: string;
  actor: string;
  server: string;
  message: string;
  outcome: SendOutcome;
  detail: SendDetail;
  /** Float seconds. */
  startTime: number;
  endTime: number | null;
}

export interface SendStart extends SessionRef {
  storeId: string;
  actor: string;
  server: string;
  message: string;
}

/** Sends shown per session, newest first. */
const SENDS_LISTED = 20;

interface SendRow {
  id: unknown;
  store_id: string;
  app_name: string;
  user_id: string;
  session_id: string;
  actor: string;
  server: string;
  message: string;
  outcome: string;
  detail: string;
  start_time: unknown;
  end_time: unknown;
}

const now = () => Date.now() / 1000;

function detailOf(text: string): SendDetail {
  try {
    return JSON.parse(text) as SendDetail;
  } catch {
    return {};
  }
}

export class AgentSendLog {
  constructor(private readonly client: SqlClient) {}

  /** Logs a send about to be made; its id closes it. */
  async start(send: SendStart): Promise<number> {
    const rows = await this.client.$queryRaw<{ id: unknown }[]>(
      sql`INSERT INTO agent_sends (store_id, app_name, user_id, session_id, actor, server, message, outcome, detail, start_time)
          VALUES (${send.storeId}, ${send.appName}, ${send.userId}, ${send.sessionId}, ${send.actor}, ${send.server}, ${send.message}, 'sending', '{}', ${now()})
          RETURNING id`,
    );
    return Number(rows[0]?.id);
  }

  async finish(id: number, outcome: Exclude<SendOutcome, 'sending'>, detail: SendDetail): Promise<void> {
    await this.client.$executeRaw(
      sql`UPDATE agent_sends SET outcome = ${outcome}, detail = ${JSON.stringify(detail)}, end_time = ${now()} WHERE id = ${id}`,
    );
  }

  /** A session's newest sends. */
  async list(storeId: string, ref: SessionRef): Promise<SendRecord[]> {
    const rows = await this.client.$queryRaw<SendRow[]>(
      sql`SELECT id, store_id, app_name, user_id, session_id, actor, server, message, outcome, detail, start_time, end_time
          FROM agent_sends
          WHERE store_id = ${storeId} AND app_name = ${ref.appName} AND user_id = ${ref.userId} AND session_id = ${ref.sessionId}
          ORDER BY id DESC LIMIT ${SENDS_LISTED}`,
    );
    return rows.map((row) => ({
      id: Number(row.id),
      storeId: row.store_id,
      appName: row.app_name,
      userId: row.user_id,
      sessionId: row.session_id,
      actor: row.actor,
      server: row.server,
      message: row.message,
      outcome: row.outcome as SendOutcome,
      detail: detailOf(row.detail),
      startTime: Number(row.start_time),
      endTime: row.end_time === null ? null : Number(row.end_time),
    }));
  }
}
