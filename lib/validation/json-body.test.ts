import { describe, expect, it } from 'vitest';
import { parseJsonBody } from './json-body';
import { findJsonSyntaxError, lineAndColumn } from './json-syntax';
import { isSessionServiceError } from '../session-service/errors';

function detailOf(text: string): string {
  try {
    parseJsonBody(text);
  } catch (error) {
    if (isSessionServiceError(error) && error.code === 'INVALID_INPUT') return error.message;
    throw error;
  }
  throw new Error('expected INVALID_INPUT');
}

describe('findJsonSyntaxError', () => {
  it('accepts everything JSON.parse accepts', () => {
    const samples = [
      '0',
      '-0.5e+10',
      '"a\\u00e9\\n"',
      'true',
      'null',
      ' [] ',
      '{}',
      '[1, [2, {"a": [null, false]}]]',
      JSON.stringify({ deep: [[[{ x: '\u2028😀' }]]], n: -12.5e-3, s: 'q"\\' }),
    ];
    for (const text of samples) {
      expect(() => JSON.parse(text)).not.toThrow();
      expect(findJsonSyntaxError(text), text).toBeNull();
    }
  });

  it('finds the offending character where V8 does, and where V8 gives no position', () => {
    const cases: [string, number, string][] = [
      ['{"a": }', 6, 'unexpected character "}", expected a JSON value'],
      ['{"a":1', 6, "expected ',' or '}', got end of input"],
      ['[1,2', 4, "expected ',' or ']', got end of input"],
      ['{"a":1}x', 7, 'unexpected character "x" after the JSON value'],
      ['nul', 0, 'unexpected character "n", expected a JSON value'],
      ['"abc', 4, 'unterminated string'],
      ['{\n  "a": 1,\n}', 12, 'expected a double-quoted property name, got character "}"'],
      ['{"a":"\u0001"}', 6, 'control character in string (escape it)'],
      ['{"a" 1}', 5, 'expected \':\' after the property name, got character "1"'],
      ['[01]', 2, 'bad number (unexpected character "1")'],
      ['[1.]', 2, 'bad number (unexpected character ".")'],
      ['["\\x"]', 2, 'bad escape in string'],
      ["{'a': 1}", 1, 'expected a double-quoted property name, got character "\'"'],
      ['[' + '1,'.repeat(300) + ']', 601, 'unexpected character "]", expected a JSON value'],
    ];
    for (const [text, offset, reason] of cases) {
      expect(() => JSON.parse(text)).toThrow();
      expect(findJsonSyntaxError(text), text).toEqual({ offset, reason });
    }
  });

  it('copes with a million levels of nesting', () => {
    const text = '['.repeat(1_000_000) + ']'.repeat(999_999);
    expect(findJsonSyntaxError(text)).toEqual({ offset: text.length, reason: "expected ',' or ']', got end of input" });
  });

  it('reports 1-based line and column', () => {
    expect(lineAndColumn('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
    expect(lineAndColumn('x', 0)).toEqual({ line: 1, column: 1 });
  });
});

describe('parseJsonBody', () => {
  it('parses, or says where and why it cannot', () => {
    expect(parseJsonBody('{"a": [1]}')).toEqual({ a: [1] });
    expect(detailOf('{\n  "a": tru\n}')).toBe(
      'Malformed JSON at line 2, column 8 (character 9): unexpected character "t", expected a JSON value',
    );
  });

  it('refuses bodies nested too deep to store', () => {
    expect(detailOf('['.repeat(101) + ']'.repeat(101))).toBe('body: nested deeper than 100 levels');
    expect(parseJsonBody('['.repeat(100) + ']'.repeat(100))).toBeInstanceOf(Array);
  });
});
