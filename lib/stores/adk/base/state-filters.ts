// An ADK store's state filters (operators, nested paths, any tier) on a
// session row `s`: each tier is a JSON blob, tested in the agent's database
// with its own JSON functions; Statehouse adds no index there.
import { MAX_STATE_FILTERS, readingsOf, type ResolvedFilter, type StateFilter } from '../../../session-service/state-filter';
import { invalidInput } from '../../../session-service/errors';
import { jsonTest } from '../../json-conditions';
import type { AdkStoreContext } from './context';
import type { Fragment } from './sql';

type TestOp = 'contains' | '=' | '<' | '>' | 'exists';

/** The test of one reading on a tier's blob column: the key is the path's first segment. */
function blobTest(ctx: AdkStoreContext, column: string, reading: ResolvedFilter, op: TestOp): Fragment {
  const dialect = ctx.db.dialect;
  const doc = dialect === 'postgresql' ? `CAST(${column} AS jsonb)` : column;
  const rawText = dialect === 'postgresql' ? `CAST(${column} AS TEXT)` : column;
  const value = reading.value;
  return jsonTest({
    dialect,
    doc,
    rawText,
    path: [reading.key, ...reading.path],
    op,
    untrusted: true,
    ...(value === undefined ? {} : { value }),
  });
}

function readingTest(ctx: AdkStoreContext, reading: ResolvedFilter, op: TestOp): Fragment {
  const { s, a, u } = ctx;
  if (reading.scope === 'session') return blobTest(ctx, `s.${s.state}`, reading, op);
  if (reading.scope === 'user') {
    const test = blobTest(ctx, `x.${u.state}`, reading, op);
    return {
      sql: `EXISTS (SELECT 1 FROM ${u.t} x WHERE x.${u.app} = s.${s.app} AND x.${u.user} = s.${s.user} AND ${test.sql})`,
      params: test.params,
    };
  }
  const test = blobTest(ctx, `x.${a.state}`, reading, op);
  return { sql: `EXISTS (SELECT 1 FROM ${a.t} x WHERE x.${a.app} = s.${s.app} AND ${test.sql})`, params: test.params };
}

/** One condition per filter; `!=` holds where `=` does not (a session without the key differs). */
export function stateFilterFragments(ctx: AdkStoreContext, filters: StateFilter[]): Fragment[] {
  if (filters.length > MAX_STATE_FILTERS) throw invalidInput(`At most ${MAX_STATE_FILTERS} state filters.`);
  return filters.map((filter) => {
    const readings = readingsOf(filter);
    const op = filter.op === '!=' ? '=' : filter.op;
    if (readings.length === 0) return { sql: '1 = 0', params: [] };
    const parts = readings.map((reading) => readingTest(ctx, reading, op));
    const any = `(${parts.map((part) => `COALESCE((${part.sql}), FALSE)`).join(' OR ')})`;
    return { sql: filter.op === '!=' ? `NOT ${any}` : any, params: parts.flatMap((part) => part.params) };
  });
}
