// Large values read as previews, cut by the database (session-service/value-preview.ts
// has the limits): a page read selects a value whole only when its JSON text
// is short, and reads the others through a walk that descends into long
// containers of few members and hands back, for each part, either its JSON
// text (short), the beginning of a long string or of a long container's text,
// with the whole length. No large value crosses into the process whole, nor
// is parsed here.
import { join, raw, sqltag as sql, type Sql } from '@prisma/client/runtime/client';
import type { SqlExecutor } from '../../db/sql';
import { setOwn } from '../../session-service/json';
import type { JsonValue } from '../../session-service/types';
import { CUT_CONTAINER_CHARS, CUT_MEMBERS, CUT_STRING_CHARS, precut, PREVIEW_CHARS } from '../../session-service/value-preview';
import { chunks, toNumber, type Dialect } from './dialect';

/** A value's JSON text read whole at most this long; longer ones are walked. */
const WHOLE_CHARS = CUT_CONTAINER_CHARS;

/** `expr` (JSON text) AS `alias` when short, else NULL: the row is then read by readPreviews. */
export function shortValue(expr: string, alias: string): Sql {
  return raw(`CASE WHEN length(${expr}) <= ${WHOLE_CHARS} THEN ${expr} END AS ${alias}`);
}

/** Whether a row's value selected by shortValue was left out as long (`length`: the value's length, NULL for no value). */
export const isLong = (text: string | null | undefined, length: unknown) => length != null && text == null;

interface WalkRow {
  owner: string;
  pointer: string;
  key: string;
  ord: unknown;
  /** w: whole JSON text; s: long string; c: long container cut; o / a: long object / array walked. */
  kind: 'w' | 's' | 'c' | 'o' | 'a';
  len: unknown;
  /** A long string's whole JSON text length; a cut container's length. */
  q: unknown;
  body: string;
}

/**
 * The previews of long values: `source(owners)` selects `owner` (text) and
 * `doc` (JSON text) for some of `owners`. Containers at `open` pointers are
 * walked whatever their number of members (an event's own fields, delta
 * keys), never cut whole. One value a statement: what the database holds
 * while cutting it (the parts' texts) stays the size of one value.
 */
export async function readPreviews<K extends string | number>(
  tx: SqlExecutor,
  dialect: Dialect,
  owners: K[],
  source: (owners: K[]) => Sql,
  open: string[] = [],
): Promise<Map<string, JsonValue>> {
  const previews = new Map<string, JsonValue>();
  for (const some of chunks(owners, 1)) {
    const select = source(some);
    const rows =
      dialect === 'postgresql'
        ? await tx.$queryRaw<WalkRow[]>(pgWalk(select, open))
        : withPointers(await tx.$queryRaw<TreeRow[]>(sqliteWalk(select, open)));
    const byOwner = new Map<string, WalkRow[]>();
    for (const row of rows) {
      const list = byOwner.get(row.owner);
      if (list) list.push(row);
      else byOwner.set(row.owner, [row]);
    }
    for (const [owner, list] of byOwner) previews.set(owner, assemble(list));
  }
  return previews;
}

/** readPreviews where some value was left out as long; false (nothing read) where none was. */
export async function previewsOfLong<K extends string | number>(
  ...args: Parameters<typeof readPreviews<K>>
): Promise<Map<string, JsonValue> | false> {
  const [, , long] = args;
  return long.length > 0 && readPreviews(...args);
}

const openList = (open: string[]) => (open.length === 0 ? sql`NULL` : join(open));

/*
 * SQLite: json_tree passes over each value, never asking for a container's
 * text (rendering it costs as much as the value is long), except that of a
 * long container of many members, which is cut whole: its parts are not
 * listed. What leaves the statement is the JSON text of short scalars and
 * strings, the lengths and first PREVIEW_CHARS of long strings and cut
 * containers. Numbers are rendered by json_quote, which gives back the same
 * double (-0 aside).
 */
function sqliteWalk(source: Sql, open: string[]): Sql {
  const fullkeys = open.map(
    (pointer) =>
      `$${pointer
        .split('/')
        .slice(1)
        .map((key) => `.${key}`)
        .join('')}`,
  );
  const opened = fullkeys.length === 0 ? sql`''` : join(fullkeys);
  // `kids`: one pass naming each container of many members (a member's path is its container's fullkey).
  return sql`WITH src(owner, doc) AS (${source}),
    kids AS (SELECT s.owner, t.path AS fullkey FROM src s, json_tree(s.doc) t WHERE t.parent IS NOT NULL
             GROUP BY s.owner, t.parent HAVING count(*) > ${CUT_MEMBERS}),
    cut AS MATERIALIZED (SELECT owner, fullkey, text FROM (SELECT k.owner, k.fullkey, json_extract(s.doc, k.fullkey) AS text
              FROM kids k JOIN src s ON s.owner = k.owner WHERE k.fullkey NOT IN (${opened})) WHERE length(text) > ${WHOLE_CHARS})
    SELECT CAST(s.owner AS TEXT) AS owner, t.id AS pointer, COALESCE(CAST(t.key AS TEXT), '') AS key, t.parent AS ord,
      CASE WHEN c.text IS NOT NULL THEN 'c'
           WHEN t.type = 'text' AND length(t.atom) > ${CUT_STRING_CHARS} THEN 's'
           WHEN t.type = 'object' THEN 'o' WHEN t.type = 'array' THEN 'a' ELSE 'w' END AS kind,
      CASE WHEN c.text IS NOT NULL THEN length(c.text) WHEN t.type = 'text' THEN length(t.atom) END AS len,
      CASE WHEN c.text IS NOT NULL THEN length(c.text) WHEN t.type = 'text' AND length(t.atom) > ${CUT_STRING_CHARS} THEN length(json_quote(t.atom)) END AS q,
      CASE WHEN c.text IS NOT NULL THEN substr(c.text, 1, ${PREVIEW_CHARS})
           WHEN t.type IN ('object', 'array') THEN NULL
           WHEN t.type = 'text' THEN CASE WHEN length(t.atom) > ${CUT_STRING_CHARS} THEN substr(t.atom, 1, ${PREVIEW_CHARS}) ELSE json_quote(t.atom) END
           WHEN t.type = 'true' THEN 'true' WHEN t.type = 'false' THEN 'false' WHEN t.type = 'null' THEN 'null'
           ELSE json_quote(t.atom) END AS body
    FROM src s CROSS JOIN json_tree(s.doc) t LEFT JOIN cut c ON c.owner = s.owner AND c.fullkey = t.fullkey
    WHERE NOT EXISTS (SELECT 1 FROM cut p WHERE p.owner = s.owner AND length(t.fullkey) > length(p.fullkey)
      AND substr(t.fullkey, 1, length(p.fullkey)) = p.fullkey AND substr(t.fullkey, length(p.fullkey) + 1, 1) IN ('.', '['))
    ORDER BY t.id`;
}

/*
 * PostgreSQL: the same walk over json (not jsonb), whose text is the stored
 * text, key order and spelling kept. Each part's facts are computed once (a
 * lateral row), since each look into a long json value parses it; a string
 * without escapes is measured on its JSON text, without unescaping it.
 */
function pgWalk(source: Sql, open: string[]): Sql {
  const facts = (value: Sql, pointer: Sql) => sql`SELECT f.type, f.len, CASE
        WHEN f.type = 'string' AND f.len > ${CUT_STRING_CHARS} THEN 's'
        WHEN f.type IN ('object', 'array') AND f.len > ${WHOLE_CHARS} THEN
          CASE WHEN ${pointer} IN (${openList(open)})
                 OR (CASE WHEN f.type = 'array' THEN json_array_length(${value})
                          ELSE (SELECT count(*) FROM json_object_keys(${value})) END) <= ${CUT_MEMBERS}
               THEN left(f.type, 1) ELSE 'c' END
        ELSE 'w' END AS kind
      FROM (SELECT t.type, CASE WHEN t.type = 'string' AND strpos(t.text, '\\') > 0 THEN length(${value} #>> '{}')
                                WHEN t.type = 'string' THEN length(t.text) - 2 ELSE length(t.text) END AS len
            FROM (SELECT json_typeof(${value}) AS type, ${value}::text AS text) t) f`;
  const childPointer = sql`w.pointer || '/' || replace(replace(c.key, '~', '~0'), '/', '~1')`;
  return sql`WITH RECURSIVE src(owner, doc) AS (${source}),
    walk(owner, pointer, key, ord, val, type, len, kind) AS (
      SELECT CAST(s.owner AS TEXT), CAST('' AS TEXT), CAST('' AS TEXT), CAST(0 AS BIGINT), s.val, n.type, n.len, n.kind
      FROM (SELECT owner, CAST(doc AS json) AS val FROM src) s CROSS JOIN LATERAL (${facts(sql`s.val`, sql`''`)}) n
      UNION ALL
      SELECT w.owner, ${childPointer}, c.key, c.ord, c.value, n.type, n.len, n.kind
      FROM walk w CROSS JOIN LATERAL (
        SELECT k.key, k.ord, k.value FROM json_each(CASE WHEN w.kind = 'o' THEN w.val ELSE '{}'::json END) WITH ORDINALITY k(key, value, ord)
        UNION ALL
        SELECT CAST(a.ord - 1 AS TEXT), a.ord, a.value FROM json_array_elements(CASE WHEN w.kind = 'a' THEN w.val ELSE '[]'::json END)
          WITH ORDINALITY a(value, ord)
      ) c CROSS JOIN LATERAL (${facts(sql`c.value`, childPointer)}) n
      WHERE w.kind IN ('o', 'a')
    )
    SELECT owner, pointer, key, ord, kind, CASE WHEN kind = 'w' THEN NULL ELSE len END AS len,
      CASE WHEN kind = 's' THEN length(val::text) WHEN kind = 'c' THEN len END AS q,
      CASE WHEN kind = 'w' THEN val::text
           WHEN kind = 's' AND strpos(left(val::text, ${2 * PREVIEW_CHARS + 2}), '\\') = 0 THEN substr(val::text, 2, ${PREVIEW_CHARS})
           WHEN kind = 's' THEN left(val #>> '{}', ${PREVIEW_CHARS})
           ELSE left(val::text, ${PREVIEW_CHARS}) END AS body
    FROM walk`;
}

/** json_tree's rows (`pointer`: the part's id, `ord`: its parent's) as the walk's, each named by its pointer. */
type TreeRow = Omit<WalkRow, 'pointer' | 'ord'> & { pointer: unknown; ord: unknown };

function withPointers(rows: TreeRow[]): WalkRow[] {
  const pointers = new Map<string, string>();
  return rows.map((row) => {
    const id = `${row.owner}\0${toNumber(row.pointer)}`;
    const parent = row.ord === null ? undefined : pointers.get(`${row.owner}\0${toNumber(row.ord)}`);
    const pointer = parent === undefined ? '' : `${parent}/${row.key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    pointers.set(id, pointer);
    return { ...row, pointer, ord: row.pointer };
  });
}

const parentOf = (pointer: string) => pointer.slice(0, pointer.lastIndexOf('/'));

/** One value from its walked parts (cutValue then cuts whole what is still too long, measuring it as it was). */
function assemble(rows: WalkRow[]): JsonValue {
  const children = new Map<string, WalkRow[]>();
  let root: WalkRow | undefined;
  for (const row of rows) {
    if (row.pointer === '') {
      root = row;
      continue;
    }
    const parent = parentOf(row.pointer);
    const list = children.get(parent);
    if (list) list.push(row);
    else children.set(parent, [row]);
  }
  const build = (row: WalkRow): JsonValue => {
    const length = toNumber(row.len ?? 0);
    if (row.kind === 'w') return JSON.parse(row.body) as JsonValue;
    if (row.kind === 's' || row.kind === 'c') return precut(length, toNumber(row.q ?? length), row.body, row.kind === 'c');
    const parts = (children.get(row.pointer) ?? []).sort((a, b) => toNumber(a.ord) - toNumber(b.ord));
    if (row.kind === 'a') return parts.map(build);
    const record: Record<string, JsonValue> = {};
    for (const part of parts) setOwn(record, part.key, build(part));
    return record;
  };
  if (!root) throw new Error('value preview without its root');
  return build(root);
}
