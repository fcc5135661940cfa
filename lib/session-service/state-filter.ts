// State filters of a session search: a key of any tier (as the agent spells
// it: `topic`, `user:tier`, `app:banner`), optionally a path into its value
// (`user:profile.email`), an operator and a value. Filters combine (AND).
import { invalidInput } from './errors';
import { scopeOfKey } from './scope';
import type { JsonValue, Scope } from './types';

export const STATE_OPERATORS = ['contains', '=', '!=', '<', '>', 'exists'] as const;
export type StateOperator = (typeof STATE_OPERATORS)[number];

/** What each operator means, for forms and errors. */
export const OPERATOR_LABELS: Record<StateOperator, string> = {
  contains: 'contains',
  '=': 'equals',
  '!=': 'does not equal',
  '<': 'less than',
  '>': 'greater than',
  exists: 'exists',
};

/** Filters one search takes. */
export const MAX_STATE_FILTERS = 8;

export interface StateFilter {
  /** The key as the agent sees it, prefix included, then an optional `.path` into its value. */
  key: string;
  op: StateOperator;
  /**
   * contains: text, found case-insensitively in a string value, or in the
   * JSON text of any other. =, !=: a JSON value (a string as itself).
   * <, >: a number compares with numbers, a string with strings (by code point:
   * ISO dates order as dates). exists: none.
   */
  value?: JsonValue;
}

/** A filter resolved: which tier, which stored key, and the path below it. */
export interface ResolvedFilter {
  scope: Scope;
  /** The stored key within its tier, without prefix. */
  key: string;
  /** Segments into the key's value; empty for the value itself. */
  path: string[];
  op: StateOperator;
  value?: JsonValue;
}

/**
 * The readings of a filter's key: the whole text as one key, and, when it
 * has dots, the text before the first dot as the key and the rest as a path
 * (`profile.email`). A key whose own name has a dot is still found whole.
 * temp: keys are never stored, so a filter on one has no reading.
 */
export function readingsOf(filter: StateFilter): ResolvedFilter[] {
  if (!STATE_OPERATORS.includes(filter.op)) {
    throw invalidInput(`op must be one of ${STATE_OPERATORS.join(', ')}; got ${JSON.stringify(filter.op)}.`);
  }
  if (filter.op !== 'exists' && filter.value === undefined) throw invalidInput(`The ${filter.op} filter on ${filter.key} needs a value.`);
  if ((filter.op === '<' || filter.op === '>') && typeof filter.value !== 'number' && typeof filter.value !== 'string') {
    throw invalidInput(`${filter.op} compares with a number or a string.`);
  }
  const { scope, key } = scopeOfKey(filter.key);
  if (scope === 'temp' || key === '') return [];
  const rest = { scope, op: filter.op, ...(filter.value === undefined ? {} : { value: filter.value }) };
  const readings: ResolvedFilter[] = [{ ...rest, key, path: [] }];
  const dot = key.indexOf('.');
  if (dot > 0 && dot < key.length - 1) readings.push({ ...rest, key: key.slice(0, dot), path: key.slice(dot + 1).split('.') });
  return readings;
}

/** The text contains tests: a string's own characters, anything else's JSON text. */
export function containsText(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
