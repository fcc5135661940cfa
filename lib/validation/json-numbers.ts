/*
 * Numbers JSON.parse would change without a word: `1e400` becomes Infinity
 * (stored as null), `12345678901234567890` loses its last digits, `1e-400`
 * becomes 0. ADK's Python server keeps such integers exactly; we cannot, so
 * we refuse them and say so instead of storing a different value.
 */
import { lineAndColumn } from './json-syntax';

export interface LossyNumber {
  /** Offset of the literal in the text (UTF-16 code units). */
  offset: number;
  literal: string;
  problem: string;
}

/** Sticky: matches exactly at lastIndex. */
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
/** Only text with a 16-digit run or a 3-digit exponent can hold such a number: most bodies skip the scan. */
const MAYBE_LOSSY = /\d{16}|[eE][+-]?\d{3}/;

function lossOf(literal: string): string | null {
  const value = Number(literal);
  if (!Number.isFinite(value)) return 'is out of range (beyond ±1.8e308)';
  if (/^-?\d+$/.test(literal) && !Number.isSafeInteger(value)) {
    return 'is an integer too large to store exactly (beyond ±9007199254740991); send it as a string';
  }
  if (value === 0 && /[1-9]/.test(literal.replace(/[eE].*$/, ''))) return 'is too small to store (it would become 0)';
  return null;
}

/** The first number in valid JSON text that would not survive parsing unchanged, or null. */
export function findLossyNumber(text: string): LossyNumber | null {
  if (!MAYBE_LOSSY.test(text)) return null;
  let i = 0;
  while (i < text.length) {
    const char = text[i];
    if (char === '"') {
      // Skip the string: numbers inside it are text.
      i += 1;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      i += 1;
    } else if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) {
      NUMBER.lastIndex = i;
      const literal = NUMBER.exec(text)?.[0] ?? char;
      const problem = lossOf(literal);
      if (problem) return { offset: i, literal, problem };
      i += literal.length;
    } else {
      i += 1;
    }
  }
  return null;
}

/** "number 1e400 at line 1, column 12 is out of range (...)", or null. */
export function lossyNumberMessage(text: string): string | null {
  const lossy = findLossyNumber(text);
  if (!lossy) return null;
  const { line, column } = lineAndColumn(text, lossy.offset);
  const shown = lossy.literal.length > 40 ? `${lossy.literal.slice(0, 40)}…` : lossy.literal;
  return `number ${shown} at line ${line}, column ${column} ${lossy.problem}`;
}
