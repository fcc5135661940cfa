// Python's json.dumps with its defaults (separators ", " and ": ",
// ensure_ascii=True), which is how adk-python writes JSON into TEXT columns:
// the bytes Statehouse writes are the bytes ADK would have written.
//
// A parsed value has lost what Python keeps: whether a number is a float
// (`2.0`) or an int (`2`). Where the value's JSON text is known (a body as
// sent, a blob as stored: `written`, a SpelledJson parallel to the value),
// a number that still has the written value is dumped as Python would dump
// what json.loads made of that text.
import type { SpelledJson } from '../../../session-service/json-spelling';
import type { JsonValue } from '../../../session-service/types';

function asciiString(text: string): string {
  return JSON.stringify(text).replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Python's repr of a float: shortest digits, `.0` when whole, an exponent (signed, two digits at least) below 1e-4 and from 1e16. */
export function pythonFloatRepr(value: number): string {
  if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : value < 0 ? '-Infinity' : 'NaN';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const [mantissa = '', exponentText = '0'] = Math.abs(value).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const exponent = Number(exponentText);
  const sign = value < 0 ? '-' : '';
  if (exponent < -4 || exponent >= 16) {
    const scaled = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${scaled}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  return `${sign}${digits.slice(0, exponent + 1).padEnd(exponent + 1, '0')}.${digits.slice(exponent + 1) || '0'}`;
}

/** A number without its JSON text: a fraction is a float for sure; a whole number reads as an int. */
function pythonNumber(value: number): string {
  return Number.isInteger(value) ? String(value).replace(/e([+-])(\d)$/, 'e$10$2') : pythonFloatRepr(value);
}

/** What json.dumps prints for json.loads of this number text: an int's digits, or a float's repr. */
function pythonSpelledNumber(text: string): string {
  if (/[.eE]/.test(text)) return pythonFloatRepr(Number(text));
  return text === '-0' ? '0' : text;
}

/** The keys in Python's order: the written text's, when it names exactly these keys; else JavaScript's. */
function keysOf(value: { [key: string]: JsonValue }, written: SpelledJson | undefined): string[] {
  const keys = Object.keys(value);
  if (written?.kind !== 'object' || written.entries.size !== keys.length) return keys;
  const ordered = [...written.entries.keys()];
  return ordered.every((key) => Object.hasOwn(value, key)) ? ordered : keys;
}

export function pythonJsonDumps(value: JsonValue, written?: SpelledJson): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    return written?.kind === 'number' && Number(written.text) === value ? pythonSpelledNumber(written.text) : pythonNumber(value);
  }
  if (typeof value === 'string') return asciiString(value);
  if (Array.isArray(value)) {
    const items = written?.kind === 'array' && written.items.length === value.length ? written.items : [];
    return `[${value.map((item, index) => pythonJsonDumps(item, items[index])).join(', ')}]`;
  }
  const entries = written?.kind === 'object' ? written.entries : undefined;
  return `{${keysOf(value, written)
    .map((key) => `${asciiString(key)}: ${pythonJsonDumps(value[key] as JsonValue, entries?.get(key))}`)
    .join(', ')}}`;
}

/** A float as pydantic and serde_json (ryu) print it: a whole one `2.0`, else the shortest digits, an exponent without `+`. */
function compactFloat(value: number): string {
  const text = String(value).replace('e+', 'e');
  return /[.eE]/.test(text) ? text : `${text}.0`;
}

/**
 * pydantic's model_dump_json and serde_json's to_string (adk-rust): compact,
 * UTF-8 as is, a float written as one. (Field order follows the model in
 * pydantic; JSON readers, ADK's included, do not depend on it.)
 */
export function compactJson(value: JsonValue, written?: SpelledJson): string {
  if (written === undefined) return JSON.stringify(value);
  if (typeof value === 'number') {
    if (written.kind !== 'number' || Number(written.text) !== value || !/[.eE]/.test(written.text)) return JSON.stringify(value);
    return compactFloat(value);
  }
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) {
    const items = written.kind === 'array' && written.items.length === value.length ? written.items : [];
    return `[${value.map((item, index) => compactJson(item, items[index])).join(',')}]`;
  }
  const entries = written.kind === 'object' ? written.entries : undefined;
  return `{${keysOf(value, written)
    .map((key) => `${JSON.stringify(key)}:${compactJson(value[key] as JsonValue, entries?.get(key))}`)
    .join(',')}}`;
}
