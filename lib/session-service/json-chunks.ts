// The text JSON.stringify gives an object, made a few items of one of its
// arrays at a time: a whole long session is written out as it is serialized,
// so its events are held once (as values), never also as one whole text.
/** Items of the array serialized per chunk. */
export const ITEMS_PER_CHUNK = 100;

/** Indents every line after the first by `pad` (JSON text has no raw line breaks inside strings). */
const indented = (text: string, pad: string) => text.replaceAll('\n', `\n${pad}`);

/**
 * Exactly `JSON.stringify(value, null, indent)` (indent 0: none), in chunks:
 * the text up to `value[listKey]`'s items, ITEMS_PER_CHUNK items at a time, then the rest.
 */
export function* jsonTextChunks(value: object, listKey: string, indent = 0): Generator<string> {
  const pad = ' '.repeat(indent);
  const colon = indent > 0 ? ': ' : ':';
  const comma = indent > 0 ? `,\n${pad}` : ',';
  const item = (entry: unknown) => JSON.stringify(entry, null, indent) ?? 'null';
  // Members whose value JSON.stringify leaves out (undefined, functions) are left out here too.
  const members = Object.entries(value).filter(([key, entry]) => key === listKey || JSON.stringify(entry) !== undefined);
  if (members.length === 0) {
    yield '{}';
    return;
  }
  let text = indent > 0 ? `{\n${pad}` : '{';
  for (const [index, [key, entry]] of members.entries()) {
    if (index > 0) text += comma;
    text += JSON.stringify(key) + colon;
    if (key !== listKey || !Array.isArray(entry)) {
      text += indented(item(entry), pad);
      continue;
    }
    const list: unknown[] = entry;
    if (list.length === 0) {
      text += '[]';
      continue;
    }
    const inner = pad.repeat(2);
    text += indent > 0 ? `[\n${inner}` : '[';
    for (let from = 0; from < list.length; from += ITEMS_PER_CHUNK) {
      yield text;
      const items = list.slice(from, from + ITEMS_PER_CHUNK).map((one) => indented(item(one), inner));
      text = (from > 0 ? (indent > 0 ? `,\n${inner}` : ',') : '') + items.join(indent > 0 ? `,\n${inner}` : ',');
    }
    text += indent > 0 ? `\n${pad}]` : ']';
  }
  yield text + (indent > 0 ? '\n}' : '}');
}
