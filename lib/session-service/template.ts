/**
 * ADK instruction template injection (`{key}` placeholders), per section 5 of
 * the session-semantics spec. Mirrors adk-python's
 * `utils/instructions_utils.py` (`inject_session_state` / `_is_valid_state_name`,
 * regex path) and notes where adk-js (`agents/instructions.ts`) differs.
 *
 * Pure: no Node APIs, no I/O; it also runs in the browser (live preview).
 *
 * Known limits of rendering JSON in JS (documented, tested):
 * - Parsed JSON numbers lose the int/float distinction: a value stored as
 *   `2.0` is the JS number 2. Given the JSON text the state was parsed from
 *   (`written`), the Python dialect renders numbers as Python would after
 *   `json.loads` of that text (`2.0` stays a float, keys keep text order).
 *   Without it, integral numbers render as Python ints and non-integral ones
 *   with Python's float repr, and JS key order applies (integer-like keys
 *   first, where ADK keeps insertion order).
 */
import { hasOwn } from './json';
import { isFloatSpelling, spelledOf, type SpelledJson } from './json-spelling';
import { KEY_PREFIX_APP, KEY_PREFIX_TEMP, KEY_PREFIX_USER } from './scope';
import type { JsonValue, StateRecord } from './types';

export type TemplateDialect = 'python' | 'typescript';

export type PlaceholderStatus = 'resolved' | 'optional-missing' | 'missing' | 'verbatim' | 'artifact' | 'artifact-missing';

export interface Placeholder {
  /** The matched text, braces included. */
  raw: string;
  /** Offsets in the template (UTF-16 code units, as String#slice). */
  start: number;
  end: number;
  /** Trimmed name without braces and `?`; for artifacts `artifact.<file>`. Null when verbatim with an empty name. */
  name: string | null;
  optional: boolean;
  status: PlaceholderStatus;
  /** For state names. */
  scope?: 'app' | 'user' | 'temp' | 'session';
  /** For `{artifact.<file>}`: the file name (text after `artifact.`, not trimmed again). */
  artifactName?: string;
  /** The state value when resolved, or the artifact text. */
  value?: JsonValue;
  /** What replaced the placeholder in the output (raw for verbatim, '' for errors). */
  rendered: string;
  /** The error ADK raises for this placeholder, in ADK's words. */
  error?: string;
  /** TypeScript dialect only: how adk-js would behave differently here. */
  portNote?: string;
}

export interface RenderResult {
  /** The rendered instruction; placeholders that error render as '' so a preview still shows the rest. */
  text: string;
  placeholders: Placeholder[];
  /** The first error ADK would raise (template order), in ADK's exact words; null if ADK would succeed. */
  error: string | null;
}

export interface RenderOptions {
  /** Value rendering of the ADK port to preview. Default 'python'. */
  dialect?: TemplateDialect;
  /** Artifact texts by file name; null/undefined = no artifact service configured. */
  artifacts?: Record<string, string> | null;
  /**
   * `state` as written in the JSON text it was parsed from (`spellJson`), when
   * the caller has that text: the Python dialect then keeps its number
   * spelling (`2.0` renders `2.0`) and key order. Ignored unless an object.
   */
  written?: SpelledJson | null;
}

const PLACEHOLDER_PATTERN = /\{+[^{}]*\}+/g;
const ARTIFACT_PREFIX = 'artifact.';

/** Python's str.isidentifier(): XID_Start or `_`, then XID_Continue. */
const IDENTIFIER = /^[\p{XID_Start}_]\p{XID_Continue}*$/u;
const ASCII_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Characters Python's str.strip() removes (str.isspace): differs from JS trim()
 * by including U+001C..U+001F and U+0085 and excluding U+FEFF.
 */
const PY_SPACE = '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const PY_STRIP = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, 'g');

function pyStrip(text: string): string {
  return text.replace(PY_STRIP, '');
}

function isIdentifier(text: string): boolean {
  return IDENTIFIER.test(text);
}

/**
 * ADK's `_is_valid_state_name`: an identifier, or exactly `app:`/`user:`/`temp:`
 * followed by an identifier.
 */
export function isValidStateName(name: string): boolean {
  const parts = name.split(':');
  if (parts.length === 1) return isIdentifier(name);
  if (parts.length === 2) {
    const prefix = `${parts[0] ?? ''}:`;
    if (prefix === KEY_PREFIX_APP || prefix === KEY_PREFIX_USER || prefix === KEY_PREFIX_TEMP) {
      return isIdentifier(parts[1] ?? '');
    }
  }
  return false;
}

function scopeOfName(name: string): 'app' | 'user' | 'temp' | 'session' {
  if (name.startsWith(KEY_PREFIX_APP)) return 'app';
  if (name.startsWith(KEY_PREFIX_USER)) return 'user';
  if (name.startsWith(KEY_PREFIX_TEMP)) return 'temp';
  return 'session';
}

// ---------------------------------------------------------------------------
// Value rendering

/**
 * Python's repr() of a float (`float_repr_style == 'short'`): the shortest
 * round-trip digits; exponent notation when the decimal exponent is < -4 or
 * >= 16 (`1e-05`, `1e+16`, `1.5e-07`), otherwise fixed with at least one
 * fractional digit (`2.0`, `0.0001`). `inf`/`nan` cannot come from JSON but
 * are rendered as Python would.
 */
export function pythonFloatRepr(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (value === Infinity) return 'inf';
  if (value === -Infinity) return '-inf';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const sign = value < 0 ? '-' : '';
  // toExponential() without an argument gives the shortest round-trip digits.
  const match = /^(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(Math.abs(value).toExponential());
  if (!match) return String(value);
  const digits = (match[1] ?? '') + (match[2] ?? '');
  const exponent = Number(match[3]);
  if (exponent < -4 || exponent >= 16) {
    const mantissa = digits.length > 1 ? `${digits[0] ?? ''}.${digits.slice(1)}` : digits;
    const expSign = exponent < 0 ? '-' : '+';
    return `${sign}${mantissa}e${expSign}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  const point = exponent + 1; // digits before the decimal point
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}.0`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** Characters Python's str.isprintable() rejects (besides ASCII controls handled first). */
const PY_NON_PRINTABLE = /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]$/u;

function hex(code: number, width: number): string {
  return code.toString(16).padStart(width, '0');
}

/** Python's repr() of a str. */
export function pythonStrRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (ch === '\t') out += '\\t';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (code < 0x20 || code === 0x7f) out += `\\x${hex(code, 2)}`;
    else if (code < 0x7f) out += ch;
    else if (!PY_NON_PRINTABLE.test(ch)) out += ch;
    else if (code <= 0xff) out += `\\x${hex(code, 2)}`;
    else if (code <= 0xffff) out += `\\u${hex(code, 4)}`;
    else out += `\\U${hex(code, 8)}`;
  }
  return out + quote;
}

/** Python's repr() of the value ADK would hold after `json.loads` of this JSON. */
function pythonRepr(value: SpelledJson): string {
  switch (value.kind) {
    case 'number':
      return isFloatSpelling(value.text) ? pythonFloatRepr(Number(value.text)) : BigInt(value.text).toString();
    case 'array':
      return `[${value.items.map(pythonRepr).join(', ')}]`;
    case 'object':
      return `{${[...value.entries].map(([key, item]) => `${pythonStrRepr(key)}: ${pythonRepr(item)}`).join(', ')}}`;
    case 'literal':
      if (value.value === null) return 'None';
      if (typeof value.value === 'string') return pythonStrRepr(value.value);
      return value.value ? 'True' : 'False';
  }
}

/** adk-python's insertion: null -> '', strings as is, everything else `str()`. */
function pythonText(value: SpelledJson): string {
  if (value.kind === 'literal' && (value.value === null || typeof value.value === 'string')) return value.value ?? '';
  return pythonRepr(value);
}

/**
 * How a state value is inserted into the instruction.
 * - python (adk-python): null -> '', strings as is, everything else `str()`:
 *   `True`/`False`, `2`, `1.5`, `1e-07`, dicts/lists as Python repr.
 * - typescript (adk-js): strings as is, objects/arrays `JSON.stringify`,
 *   everything else `String()` (`null`, `true`, `2`).
 */
export function formatValue(value: JsonValue, dialect: TemplateDialect): string {
  if (typeof value === 'string') return value;
  if (dialect === 'typescript') {
    if (value !== null && typeof value === 'object') return JSON.stringify(value);
    return String(value);
  }
  return pythonText(spelledOf(value));
}

// ---------------------------------------------------------------------------
// Rendering

function ownValue(record: object, key: string): JsonValue | undefined {
  if (!hasOwn(record, key)) return undefined;
  return Object.getOwnPropertyDescriptor(record, key)?.value as JsonValue | undefined;
}

function stateNote(name: string, found: boolean): string | undefined {
  const bare = name.includes(':') ? name.slice(name.indexOf(':') + 1) : name;
  if (!ASCII_IDENTIFIER.test(bare)) {
    return 'adk-js only accepts ASCII identifiers ([A-Za-z_][A-Za-z0-9_]*): it leaves this placeholder as written.';
  }
  if (!found && name in Object.prototype) {
    return 'adk-js looks keys up with `in`, which also sees inherited Object.prototype members: it would insert the inherited value instead of treating the key as missing.';
  }
  return undefined;
}

/**
 * Renders an instruction template the way ADK's `inject_session_state` does.
 * Placeholders are processed left to right; unlike ADK, rendering continues
 * after an error so the preview can show the rest (`error` holds the first).
 */
export function renderTemplate(template: string, state: StateRecord, options: RenderOptions = {}): RenderResult {
  const dialect: TemplateDialect = options.dialect ?? 'python';
  const artifacts = options.artifacts ?? null;
  const written = dialect === 'python' && options.written?.kind === 'object' ? options.written.entries : null;
  const placeholders: Placeholder[] = [];
  let text = '';
  let lastEnd = 0;
  let error: string | null = null;

  for (const match of template.matchAll(PLACEHOLDER_PATTERN)) {
    const raw = match[0];
    const start = match.index ?? 0;
    const end = start + raw.length;
    let name = pyStrip(raw.replace(/^\{+/, '').replace(/\}+$/, ''));
    const optional = name.endsWith('?');
    if (optional) name = name.slice(0, -1);

    let placeholder: Placeholder;
    if (name.startsWith(ARTIFACT_PREFIX)) {
      const artifactName = name.slice(ARTIFACT_PREFIX.length);
      const base = { raw, start, end, name, optional, artifactName };
      if (artifacts === null) {
        // Checked before `?`: an optional artifact placeholder still fails.
        placeholder = { ...base, status: 'artifact-missing', rendered: '', error: 'Artifact service is not initialized.' };
      } else if (hasOwn(artifacts, artifactName)) {
        const content = ownValue(artifacts, artifactName);
        const artifactText = typeof content === 'string' ? content : '';
        placeholder = { ...base, status: 'artifact', value: artifactText, rendered: artifactText };
      } else if (optional) {
        placeholder = { ...base, status: 'artifact-missing', rendered: '' };
      } else {
        placeholder = { ...base, status: 'artifact-missing', rendered: '', error: `Artifact ${artifactName} not found.` };
      }
    } else if (!isValidStateName(name)) {
      placeholder = { raw, start, end, name: name === '' ? null : name, optional, status: 'verbatim', rendered: raw };
    } else {
      const scope = scopeOfName(name);
      const found = hasOwn(state, name);
      const base = { raw, start, end, name, optional, scope };
      if (found) {
        const value = ownValue(state, name) ?? null;
        const asWritten = written?.get(name);
        const rendered = asWritten === undefined ? formatValue(value, dialect) : pythonText(asWritten);
        placeholder = { ...base, status: 'resolved', value, rendered };
      } else if (optional) {
        placeholder = { ...base, status: 'optional-missing', rendered: '' };
      } else {
        placeholder = { ...base, status: 'missing', rendered: '', error: `Context variable not found: \`${name}\`.` };
      }
      if (dialect === 'typescript') {
        const note = stateNote(name, found);
        if (note !== undefined) placeholder.portNote = note;
      }
    }

    if (placeholder.error !== undefined && error === null) error = placeholder.error;
    placeholders.push(placeholder);
    text += template.slice(lastEnd, start) + placeholder.rendered;
    lastEnd = end;
  }
  text += template.slice(lastEnd);
  return { text, placeholders, error };
}
