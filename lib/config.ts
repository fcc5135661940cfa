import { DEFAULT_DATABASE_URL } from './db';

/** The database this process serves: DATABASE_URL, else the embedded SQLite file. */
export function databaseUrl(): string {
  return process.env.DATABASE_URL?.trim() || DEFAULT_DATABASE_URL;
}
