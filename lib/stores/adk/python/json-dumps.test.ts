// The bytes Python writes, for the values ADK stores: expected strings are
// what CPython 3.12's json.dumps and pydantic's model_dump_json print.
import { describe, expect, it } from 'vitest';
import { spellJson } from '../../../session-service/json-spelling';
import { compactJson, pythonJsonDumps } from './json-dumps';
import { eventFromPython, eventToPython } from './event-json';

describe('pythonJsonDumps (json.dumps defaults)', () => {
  it('separates with ", " and ": " and escapes every non-ASCII character', () => {
    expect(pythonJsonDumps({ a: 1, b: [true, null, 'x'] })).toBe('{"a": 1, "b": [true, null, "x"]}');
    expect(pythonJsonDumps({ city: 'Zoë', emoji: '😀', del: '\u007f', sep: '\u2028' })).toBe(
      '{"city": "Zo\\u00eb", "emoji": "\\ud83d\\ude00", "del": "\\u007f", "sep": "\\u2028"}',
    );
    expect(pythonJsonDumps({})).toBe('{}');
    expect(pythonJsonDumps([])).toBe('[]');
  });

  it('prints floats as Python’s repr does', () => {
    expect(pythonJsonDumps([0.1, 1.5, 1e-7, 1e21, 123456789.25, -0.5])).toBe('[0.1, 1.5, 1e-07, 1e+21, 123456789.25, -0.5]');
  });

  it('prints a number as json.dumps prints json.loads of its text, when that text still spells the value', () => {
    const written = spellJson('{"f": 2.0, "e": 1e2, "s": 1e16, "t": 0.00001, "i": 2, "l": [1.0, 2], "o": {"10": 1.0, "b": 2}, "old": 1.0}');
    const value = { f: 2, e: 100, s: 1e16, t: 0.00001, i: 2, l: [1, 2], o: { 10: 1, b: 2 }, old: 5 };
    expect(pythonJsonDumps(value, written ?? undefined)).toBe(
      '{"f": 2.0, "e": 100.0, "s": 1e+16, "t": 1e-05, "i": 2, "l": [1.0, 2], "o": {"10": 1.0, "b": 2}, "old": 5}',
    );
    expect(pythonJsonDumps({ b: 1, 10: 2 }, spellJson('{"b": 1, "10": 2}') ?? undefined)).toBe('{"b": 1, "10": 2}');
  });

  it('escapes control characters and quotes as Python does', () => {
    expect(pythonJsonDumps('a"b\\c\n\t\u0000')).toBe('"a\\"b\\\\c\\n\\t\\u0000"');
  });
});

describe('compactJson (model_dump_json)', () => {
  it('is compact, and writes a float written as one as one', () => {
    expect(compactJson({ a: 2, b: [1, 'x'] })).toBe('{"a":2,"b":[1,"x"]}');
    expect(compactJson({ a: 2, b: 3, c: 1e21 }, spellJson('{"a": 2.0, "b": 3, "c": 1e21}') ?? undefined)).toBe('{"a":2.0,"b":3,"c":1e21}');
  });
});

describe('Python field names of events', () => {
  it('renames model fields both ways and leaves the keys of data maps alone', () => {
    const python = {
      id: 'e1',
      invocation_id: 'inv',
      author: 'agent',
      timestamp: 1.5,
      turn_complete: true,
      content: { role: 'model', parts: [{ function_call: { id: 'c', name: 'f', args: { max_price: 1, some_key: { inner_key: 2 } } } }] },
      actions: {
        state_delta: { user_name: 'x', 'app:some_key': 1 },
        artifact_delta: {},
        requested_auth_configs: {},
        requested_tool_confirmations: {},
        transfer_to_agent: 'b',
      },
      custom_metadata: { trace_id: 't' },
    };
    const event = eventFromPython(python);
    expect(event).toMatchObject({
      invocationId: 'inv',
      turnComplete: true,
      content: { parts: [{ functionCall: { args: { max_price: 1, some_key: { inner_key: 2 } } } }] },
      actions: { stateDelta: { user_name: 'x', 'app:some_key': 1 }, transferToAgent: 'b' },
      customMetadata: { trace_id: 't' },
    });
    expect(eventToPython(event)).toEqual(python);
  });

  it('drops None fields as exclude_none does, keeping null values inside maps', () => {
    const dumped = eventToPython(
      eventFromPython({ id: 'e', invocation_id: '', author: 'a', timestamp: 1, actions: { state_delta: { gone: null } } }),
    );
    expect(dumped).toEqual({
      id: 'e',
      invocation_id: '',
      author: 'a',
      timestamp: 1,
      actions: { state_delta: { gone: null }, artifact_delta: {}, requested_auth_configs: {}, requested_tool_confirmations: {} },
    });
    expect(eventToPython({ ...eventFromPython({ id: 'e', author: 'a', timestamp: 1 }), branch: null } as never)).not.toHaveProperty(
      'branch',
    );
  });
});
