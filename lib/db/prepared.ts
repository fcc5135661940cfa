// Statements PostgreSQL parses and plans once per connection: the hot ones of
// fixed text (an append, a create, a session read), sent by name after their
// first use on a connection. Unnamed, each call sent its text to be parsed,
// analysed and planned again, which for the session read cost as much as
// running it. Only statements marked here are named: a prepared statement
// lives as long as its connection, so texts that vary (lists of any length)
// must not be, and the names are bounded besides.
import type { Sql } from '@prisma/client/runtime/client';

const marked = new WeakSet<Sql>();

/** `statement`, to be prepared once per connection on PostgreSQL (SQLite ignores the mark). Its text must be one of a few shapes. */
export function prepared(statement: Sql): Sql {
  marked.add(statement);
  return statement;
}

export function isPrepared(statement: Sql): boolean {
  return marked.has(statement);
}

/** More distinct texts than this are a bug in what is marked; they run unnamed rather than fill every connection. */
const MAX_NAMES = 64;
const names = new Map<string, string>();

/**
 * The name `text` goes by on every connection: one name per text, so no
 * connection meets a name with two texts (node-postgres refuses that).
 * Undefined once MAX_NAMES texts have names.
 */
export function statementName(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined && names.size < MAX_NAMES) {
    name = `statehouse_${names.size + 1}`;
    names.set(text, name);
  }
  return name;
}
