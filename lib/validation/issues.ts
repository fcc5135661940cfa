import type { z } from 'zod';
import { describeJsonType } from './json-text';
import { invalidInput } from '../session-service/errors';

/** How zod's expected types read in a message. */
const EXPECTED: Record<string, string> = {
  object: 'a JSON object',
  record: 'a JSON object',
  array: 'an array',
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'a boolean',
};

/**
 * Per-parse messages for type errors, "expected a JSON object, got an array",
 * in the words lib/validation uses. Schema-level messages take precedence.
 */
const typeMessages: z.core.$ZodErrorMap = (issue) => {
  if (issue.code !== 'invalid_type') return undefined;
  if (issue.input === undefined) return 'is required';
  return `expected ${EXPECTED[issue.expected] ?? issue.expected}, got ${describeJsonType(issue.input)}`;
};

function pathText(path: readonly PropertyKey[], root: string): string {
  const parts = path.map((part) => String(part));
  if (root) parts.unshift(root);
  return parts.join('.') || 'body';
}

/** A missing field reads "is required" even where a schema words its type error ("must be a string"). */
function messageOf(issue: z.core.$ZodIssue): string {
  return issue.code === 'invalid_type' && 'input' in issue && issue.input === undefined ? 'is required' : issue.message;
}

/** "state: expected a JSON object, got an array; events.0.author: is required" (at most three issues). */
export function formatIssues(issues: readonly z.core.$ZodIssue[], root = ''): string {
  const lines = issues.slice(0, 3).map((issue) => `${pathText(issue.path, root)}: ${messageOf(issue)}`);
  if (issues.length > 3) lines.push(`and ${issues.length - 3} more`);
  return lines.join('; ');
}

/**
 * Validates with a schema; a failure is INVALID_INPUT (a 400 at the API) naming the field and the problem.
 * `root` prefixes paths ("events.0", "If-Match") when the value is part of something larger.
 */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, root = ''): z.output<S> {
  const result = schema.safeParse(value, { error: typeMessages, reportInput: true });
  if (result.success) return result.data;
  throw invalidInput(formatIssues(result.error.issues, root));
}
