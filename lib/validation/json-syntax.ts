/**
 * Where JSON text goes wrong. V8's JSON.parse messages carry a position only
 * for some errors ("Unexpected token '}', "{"a": }" is not valid JSON" has
 * none, and quotes the body back), so after JSON.parse fails this scanner
 * finds the first offending character itself. Iterative, so deep nesting
 * cannot overflow the stack.
 */

export interface JsonSyntaxError {
  /** Offset in UTF-16 code units (String indexes). */
  offset: number;
  reason: string;
}

type Container = '{' | '[';
/** What the scanner expects next. */
type Expect = 'value' | 'value-or-close' | 'key' | 'key-or-close' | 'colon' | 'after-value';

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const HEX = /^[0-9a-fA-F]{4}$/;
const LITERALS = ['true', 'false', 'null'];
/** Sticky: matches exactly at lastIndex. */
const NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;

function describe(char: string | undefined): string {
  return char === undefined ? 'end of input' : `character ${JSON.stringify(char)}`;
}

/** The first syntax error in `text`, or null when it is valid JSON. */
export function findJsonSyntaxError(text: string): JsonSyntaxError | null {
  const stack: Container[] = [];
  let expect: Expect = 'value';
  let i = 0;
  const fail = (reason: string, at = i): JsonSyntaxError => ({ offset: at, reason });

  /** Scans a string starting at its opening quote; returns the index after the closing quote, or an error. */
  const scanString = (): number | JsonSyntaxError => {
    let j = i + 1;
    for (;;) {
      const char = text[j];
      if (char === undefined) return fail('unterminated string', j);
      if (char === '"') return j + 1;
      if (char < ' ') return fail('control character in string (escape it)', j);
      if (char === '\\') {
        const escaped = text[j + 1];
        if (escaped === 'u') {
          if (!HEX.test(text.slice(j + 2, j + 6))) return fail('bad \\u escape in string', j);
          j += 6;
          continue;
        }
        if (escaped === undefined || !ESCAPES.has(escaped)) return fail('bad escape in string', j);
        j += 2;
        continue;
      }
      j += 1;
    }
  };

  const scanNumber = (): number | JsonSyntaxError => {
    NUMBER.lastIndex = i;
    const match = NUMBER.exec(text);
    if (!match) return fail('bad number');
    const end = i + match[0].length;
    // "01", "1.", "1e": the regex stops early; report the character it stopped at.
    const next = text[end];
    if (next !== undefined && /[0-9.eE+-]/.test(next)) return fail(`bad number (unexpected ${describe(next)})`, end);
    return end;
  };

  while (true) {
    while (i < text.length && WHITESPACE.has(text[i] ?? '')) i += 1;
    const char = text[i];

    if (expect === 'after-value') {
      const top = stack[stack.length - 1];
      if (top === undefined) return char === undefined ? null : fail(`unexpected ${describe(char)} after the JSON value`);
      if (char === ',') {
        expect = top === '{' ? 'key' : 'value';
      } else if ((char === '}' && top === '{') || (char === ']' && top === '[')) {
        stack.pop();
      } else {
        return fail(`expected ',' or '${top === '{' ? '}' : ']'}', got ${describe(char)}`);
      }
      i += 1;
      continue;
    }

    if (expect === 'colon') {
      if (char !== ':') return fail(`expected ':' after the property name, got ${describe(char)}`);
      i += 1;
      expect = 'value';
      continue;
    }

    if (expect === 'key' || expect === 'key-or-close') {
      if (expect === 'key-or-close' && char === '}') {
        stack.pop();
        i += 1;
        expect = 'after-value';
        continue;
      }
      if (char !== '"') return fail(`expected a double-quoted property name, got ${describe(char)}`);
      const end = scanString();
      if (typeof end !== 'number') return end;
      i = end;
      expect = 'colon';
      continue;
    }

    // expect is 'value' or 'value-or-close'
    if (expect === 'value-or-close' && char === ']') {
      stack.pop();
      i += 1;
      expect = 'after-value';
      continue;
    }
    if (char === '{' || char === '[') {
      stack.push(char);
      i += 1;
      expect = char === '{' ? 'key-or-close' : 'value-or-close';
      continue;
    }
    let end: number | JsonSyntaxError;
    if (char === '"') end = scanString();
    else if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) end = scanNumber();
    else {
      const literal = LITERALS.find((word) => text.startsWith(word, i));
      end = literal ? i + literal.length : fail(`unexpected ${describe(char)}, expected a JSON value`);
    }
    if (typeof end !== 'number') return end;
    i = end;
    expect = 'after-value';
  }
}

/** 1-based line and column of an offset, as an editor shows them. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let j = 0; j < offset && j < text.length; j += 1) {
    if (text[j] === '\n') {
      line += 1;
      lineStart = j + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * JSON.parse, or why the text is not JSON: where (line and column; `withOffset`
 * adds the character offset) and what. The position is our scanner's, not the
 * engine's message, so the browser and the server say the same.
 */
export function parseJsonOrExplain(
  text: string,
  { withOffset = false } = {},
): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    const syntax = findJsonSyntaxError(text);
    // Valid JSON the engine still refused (resource limits): say so rather than invent a position.
    if (!syntax) return { ok: false, message: `Malformed JSON: ${error instanceof Error ? error.message : String(error)}` };
    const { line, column } = lineAndColumn(text, syntax.offset);
    const offset = withOffset ? ` (character ${syntax.offset})` : '';
    return { ok: false, message: `Malformed JSON at line ${line}, column ${column}${offset}: ${syntax.reason}` };
  }
}
