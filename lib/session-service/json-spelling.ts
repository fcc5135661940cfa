/**
 * JSON as written, for rendering values the way a Python program that ran
 * `json.loads` on the same text would print them. `JSON.parse` forgets what
 * Python keeps: whether a number was spelled as a float (`2.0`, `1e2`) or an
 * int (`2`), and the text order of keys (JS puts integer-like keys first).
 *
 * Pure: no Node APIs; it also runs in the browser (live preview).
 */
import { setOwn } from './json';
import type { JsonValue } from './types';

export type SpelledJson =
  | { kind: 'literal'; value: null | boolean | string }
  /** The number exactly as written in the JSON text. */
  | { kind: 'number'; text: string }
  | { kind: 'array'; items: SpelledJson[] }
  /** Keys in first-seen order holding their last value, as a Python dict built from the text does. */
  | { kind: 'object'; entries: Map<string, SpelledJson> };

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const SPACE = /[ \t\n\r]*/y;
const LITERALS: [string, null | boolean][] = [
  ['null', null],
  ['true', true],
  ['false', false],
];

class Scanner {
  private at = 0;

  constructor(private readonly text: string) {}

  document(): SpelledJson | null {
    const value = this.value();
    this.space();
    return value !== null && this.at === this.text.length ? value : null;
  }

  private space(): void {
    SPACE.lastIndex = this.at;
    SPACE.exec(this.text);
    this.at = SPACE.lastIndex;
  }

  private token(pattern: RegExp): string | null {
    pattern.lastIndex = this.at;
    const match = pattern.exec(this.text);
    if (!match) return null;
    this.at = pattern.lastIndex;
    return match[0];
  }

  private take(char: string): boolean {
    this.space();
    if (this.text[this.at] !== char) return false;
    this.at += 1;
    return true;
  }

  private value(): SpelledJson | null {
    this.space();
    const char = this.text[this.at];
    if (char === '{') return this.object();
    if (char === '[') return this.array();
    if (char === '"') {
      const token = this.token(STRING);
      return token === null ? null : { kind: 'literal', value: JSON.parse(token) as string };
    }
    for (const [word, value] of LITERALS) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return { kind: 'literal', value };
      }
    }
    const number = this.token(NUMBER);
    return number === null ? null : { kind: 'number', text: number };
  }

  private array(): SpelledJson | null {
    this.at += 1;
    const items: SpelledJson[] = [];
    if (this.take(']')) return { kind: 'array', items };
    do {
      const item = this.value();
      if (item === null) return null;
      items.push(item);
    } while (this.take(','));
    return this.take(']') ? { kind: 'array', items } : null;
  }

  private object(): SpelledJson | null {
    this.at += 1;
    const entries = new Map<string, SpelledJson>();
    if (this.take('}')) return { kind: 'object', entries };
    do {
      this.space();
      const key = this.token(STRING);
      if (key === null || !this.take(':')) return null;
      const item = this.value();
      if (item === null) return null;
      entries.set(JSON.parse(key) as string, item);
    } while (this.take(','));
    return this.take('}') ? { kind: 'object', entries } : null;
  }
}

/** The JSON text as written, or null when it is not valid JSON (or nested too deep to walk). */
export function spellJson(text: string): SpelledJson | null {
  try {
    return new Scanner(text).document();
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw error;
  }
}

/**
 * A parsed value as if it had been written by JSON.stringify: integral
 * numbers spelled as ints (the parse lost any `.0`), keys in JS order.
 */
export function spelledOf(value: JsonValue): SpelledJson {
  if (typeof value === 'number') {
    return { kind: 'number', text: Number.isInteger(value) ? BigInt(value).toString() : String(value) };
  }
  if (value === null || typeof value !== 'object') return { kind: 'literal', value };
  if (Array.isArray(value)) return { kind: 'array', items: value.map(spelledOf) };
  const entries = new Map<string, SpelledJson>();
  for (const key of Object.keys(value)) {
    entries.set(key, spelledOf(Object.getOwnPropertyDescriptor(value, key)?.value as JsonValue));
  }
  return { kind: 'object', entries };
}

/** The value JSON.parse makes of the text (own keys only, so `__proto__` stays a key). */
export function plainOf(spelled: SpelledJson): JsonValue {
  if (spelled.kind === 'literal') return spelled.value;
  if (spelled.kind === 'number') return Number(spelled.text);
  if (spelled.kind === 'array') return spelled.items.map(plainOf);
  const record: Record<string, JsonValue> = {};
  for (const [key, item] of spelled.entries) setOwn(record, key, plainOf(item));
  return record;
}

/** Python's json.loads makes a float of a number written with a fraction or an exponent, an int otherwise. */
export function isFloatSpelling(text: string): boolean {
  return /[.eE]/.test(text);
}

/** The JSON text, compact, as written: numbers as spelled, keys in their written order. */
export function spelledText(spelled: SpelledJson): string {
  if (spelled.kind === 'literal') return JSON.stringify(spelled.value);
  if (spelled.kind === 'number') return spelled.text;
  if (spelled.kind === 'array') return `[${spelled.items.map(spelledText).join(',')}]`;
  const parts: string[] = [];
  for (const [key, item] of spelled.entries) parts.push(`${JSON.stringify(key)}:${spelledText(item)}`);
  return `{${parts.join(',')}}`;
}

/**
 * Text in which JSON.stringify of the parse may spell something Python reads
 * differently: a whole number written as a float (`2.0`, `1e2`), more digits
 * than a double keeps, an integer-like key (JS moves it first). Other
 * fractions (`0.75`, an event's timestamp) read the same either way. A cheap
 * test, so the scan runs only on the few texts that can differ.
 */
const SPELLING_HINT = /\d\.0+(?![0-9])|\d[eE]|(?<![0-9])[0-9]{16}|"\d+"\s*:/;

export function mayBeSpelledApart(text: string): boolean {
  return SPELLING_HINT.test(text);
}

/**
 * The compact text of `spelled` when it differs from JSON.stringify of its
 * parse (`2.0` where JSON.stringify writes `2`); undefined when they agree.
 */
export function distinctText(spelled: SpelledJson): string | undefined {
  const text = spelledText(spelled);
  return text === JSON.stringify(plainOf(spelled)) ? undefined : text;
}

/** Like distinctText, from JSON text (undefined also when it is not JSON). */
export function distinctSpelling(text: string): string | undefined {
  if (!mayBeSpelledApart(text)) return undefined;
  const spelled = spellJson(text);
  return spelled ? distinctText(spelled) : undefined;
}
