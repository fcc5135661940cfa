// What is in the agent's database, read from its catalogue: tables, their
// columns and declared types, and ADK's metadata rows. Families decide from
// this alone which of them wrote it.
import type { AgentDb, AgentDialect } from './agent-db';

export interface ColumnInfo {
  /** Declared type, lower case (`real`, `text`, `datetime`, `jsonb`, `timestamp without time zone`, ...). */
  type: string;
  /** As declared (SQLite keeps the DDL's spelling: SQLAlchemy writes `VARCHAR(128)`, MikroORM `text`). */
  declared: string;
  /** character_maximum_length on PostgreSQL and MySQL; from `VARCHAR(n)` on SQLite. */
  maxLength: number | null;
  notNull: boolean;
}

export interface SchemaInfo {
  dialect: AgentDialect;
  /** Table name to its columns (name to info), in the default schema only. */
  tables: Map<string, Map<string, ColumnInfo>>;
  /** `adk_internal_metadata` rows, or null when there is no such table. */
  metadata: Map<string, string> | null;
}

export function hasColumns(schema: SchemaInfo, table: string, columns: string[]): boolean {
  const found = schema.tables.get(table);
  return found !== undefined && columns.every((column) => found.has(column));
}

export function column(schema: SchemaInfo, table: string, name: string): ColumnInfo | undefined {
  return schema.tables.get(table)?.get(name);
}

export function columnType(schema: SchemaInfo, table: string, column: string): string | undefined {
  return schema.tables.get(table)?.get(column)?.type;
}

/** A short description for messages: `sessions(app_name, ...), events(...)`. */
export function describeSchema(schema: SchemaInfo): string {
  if (schema.tables.size === 0) return 'no tables';
  return [...schema.tables].map(([table, columns]) => `${table}(${[...columns.keys()].join(', ')})`).join(', ');
}

export async function readSchema(db: AgentDb): Promise<SchemaInfo> {
  const tables = new Map<string, Map<string, ColumnInfo>>();
  const add = (table: string, column: string, info: ColumnInfo) => {
    const columns = tables.get(table) ?? new Map<string, ColumnInfo>();
    columns.set(column, info);
    tables.set(table, columns);
  };
  if (db.dialect === 'sqlite') {
    const rows = await db.all(
      `SELECT m.name AS t, p.name AS c, p.type AS type, p."notnull" AS nn
       FROM sqlite_master m, pragma_table_info(m.name) p
       WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' ORDER BY m.name, p.cid`,
    );
    for (const row of rows) {
      const declared = String(row.type);
      const length = /\((\d+)\)/.exec(declared)?.[1];
      add(String(row.t), String(row.c), {
        type: declared.toLowerCase(),
        declared,
        maxLength: length === undefined ? null : Number(length),
        notNull: Number(row.nn) === 1,
      });
    }
  } else {
    // MySQL/MariaDB: the current database is the schema; column_type keeps the precision (`datetime(6)`).
    const here = db.dialect === 'mysql' ? 'DATABASE()' : 'current_schema()';
    const declared = db.dialect === 'mysql' ? 'column_type' : 'data_type';
    const rows = await db.all(
      `SELECT table_name AS t, column_name AS c, data_type AS type, ${declared} AS declared, is_nullable AS nullable, character_maximum_length AS len
       FROM information_schema.columns WHERE table_schema = ${here} ORDER BY table_name, ordinal_position`,
    );
    for (const row of rows) {
      add(String(row.t), String(row.c), {
        type: String(row.type).toLowerCase(),
        declared: String(row.declared),
        maxLength: row.len === null || row.len === undefined ? null : Number(row.len),
        notNull: row.nullable === 'NO',
      });
    }
  }
  let metadata: Map<string, string> | null = null;
  if (hasColumns({ dialect: db.dialect, tables, metadata }, 'adk_internal_metadata', ['key', 'value'])) {
    const rows = await db.all('SELECT "key" AS k, "value" AS v FROM adk_internal_metadata');
    metadata = new Map(rows.map((row) => [String(row.k), String(row.v)]));
  }
  return { dialect: db.dialect, tables, metadata };
}
