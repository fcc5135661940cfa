// Python's json.dumps with its defaults (separators ", " and ": ",
// ensure_ascii=True), which is how adk-python writes JSON into TEXT columns:
// the bytes Statehouse writes are the bytes ADK would have written.
import type { JsonValue } from '../../../session-service/types';

function asciiString(text: string): string {
  return JSON.stringify(text).replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Python's float repr for the numbers JSON carries: an exponent has a sign and two digits at least (1e-07). */
function pythonNumber(value: number): string {
  if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : value < 0 ? '-Infinity' : 'NaN';
  return String(value).replace(/e([+-])(\d)$/, 'e$10$2');
}

export function pythonJsonDumps(value: JsonValue): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return pythonNumber(value);
  if (typeof value === 'string') return asciiString(value);
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(', ')}]`;
  return `{${Object.keys(value)
    .map((key) => `${asciiString(key)}: ${pythonJsonDumps(value[key] as JsonValue)}`)
    .join(', ')}}`;
}

/**
 * pydantic's model_dump_json: compact, UTF-8 as is. (Field order follows the
 * model in pydantic; JSON readers, ADK's included, do not depend on it.)
 */
export function pydanticJson(value: JsonValue): string {
  return JSON.stringify(value);
}
