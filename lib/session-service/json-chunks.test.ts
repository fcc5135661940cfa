import { describe, expect, it } from 'vitest';
import { ITEMS_PER_CHUNK, jsonTextChunks } from './json-chunks';

const events = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ id: `e${i}`, text: `line\n"${i}" é \u2028`, nested: { list: [1, { a: null }], empty: {} } }));

describe('jsonTextChunks', () => {
  const values: [string, object][] = [
    ['nothing', {}],
    ['no events', { id: 's', state: {}, events: [], lastUpdateTime: 1 }],
    ['one event', { id: 's', state: { events: [] }, events: events(1), lastUpdateTime: 1.5 }],
    ['several chunks', { id: 's', state: { n: 1e21, neg: -0 }, events: events(2 * ITEMS_PER_CHUNK + 3), lastUpdateTime: 2 }],
    ['left-out members', { id: 's', gone: undefined, events: events(3), after: 'x' }],
    ['an own __proto__ key', JSON.parse('{"state": {"__proto__": {"x": 1}}, "events": [{"__proto__": 2}]}') as object],
  ];

  it.each(values)('gives JSON.stringify’s text, compact and indented: %s', (_label, value) => {
    expect([...jsonTextChunks(value, 'events')].join('')).toBe(JSON.stringify(value));
    expect([...jsonTextChunks(value, 'events', 2)].join('')).toBe(JSON.stringify(value, null, 2));
  });

  it('serializes a long array a chunk of items at a time', () => {
    const value = { id: 's', events: events(10 * ITEMS_PER_CHUNK) };
    const chunks = [...jsonTextChunks(value, 'events')];
    expect(chunks.length).toBeGreaterThanOrEqual(10);
    const whole = JSON.stringify(value).length;
    expect(Math.max(...chunks.map((chunk) => chunk.length))).toBeLessThan(whole / 5);
  });
});
