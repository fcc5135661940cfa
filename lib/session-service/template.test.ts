import { describe, expect, it } from 'vitest';
import { formatValue, isValidStateName, pythonFloatRepr, pythonStrRepr, renderTemplate } from './template';
import { spellJson } from './json-spelling';
import type { StateRecord } from './types';

const py = (template: string, state: StateRecord = {}, artifacts?: Record<string, string> | null) =>
  renderTemplate(template, state, { dialect: 'python', artifacts });
const ts = (template: string, state: StateRecord = {}, artifacts?: Record<string, string> | null) =>
  renderTemplate(template, state, { dialect: 'typescript', artifacts });

describe('isValidStateName', () => {
  it.each(['x', '_x', 'x1', 'snake_case', '名前', 'café', 'app:x', 'user:café', 'temp:t', 'x·y'])('accepts %j', (name) => {
    expect(isValidStateName(name)).toBe(true);
  });

  it.each(['', '1x', 'foo bar', 'a:b:c', 'user.name', 'APP:x', 'session:x', 'app:', ':x', 'app:1x', 'a-b', '"a": 1', 'x?'])(
    'rejects %j',
    (name) => {
      expect(isValidStateName(name)).toBe(false);
    },
  );
});

describe('renderTemplate: substitution', () => {
  it('substitutes a simple key and reports its placeholder', () => {
    const result = py('Hello {name}!', { name: 'Ada' });
    expect(result).toEqual({
      text: 'Hello Ada!',
      error: null,
      placeholders: [
        {
          raw: '{name}',
          start: 6,
          end: 12,
          name: 'name',
          optional: false,
          status: 'resolved',
          scope: 'session',
          value: 'Ada',
          rendered: 'Ada',
        },
      ],
    });
  });

  it('defaults to the python dialect', () => {
    expect(renderTemplate('{b}', { b: true }).text).toBe('True');
  });

  it('treats {{x}} like {x}, consuming all braces', () => {
    const result = py('a {{x}} b', { x: 'X' });
    expect(result.text).toBe('a X b');
    expect(result.placeholders[0]).toMatchObject({ raw: '{{x}}', start: 2, end: 7, name: 'x', status: 'resolved' });
  });

  it('treats {{{x}}} and unbalanced {{x} / {x}} the same way', () => {
    expect(py('[{{{x}}}]', { x: 'X' }).text).toBe('[X]');
    expect(py('[{{x}]', { x: 'X' }).text).toBe('[X]');
    expect(py('[{x}}]', { x: 'X' }).text).toBe('[X]');
    expect(py('[{{{x}}}]', { x: 'X' }).placeholders[0]).toMatchObject({ raw: '{{{x}}}', start: 1, end: 8 });
  });

  it('trims spaces inside the braces', () => {
    const result = py('<{ x }>', { x: 'X' });
    expect(result.text).toBe('<X>');
    expect(result.placeholders[0]).toMatchObject({ raw: '{ x }', name: 'x', status: 'resolved' });
    expect(py('<{\tx\n}>', { x: 'X' }).text).toBe('<X>');
  });

  it('strips with Python whitespace rules (U+0085 yes, U+FEFF no)', () => {
    expect(py('{\u0085x}', { x: 'X' }).text).toBe('X');
    expect(py('{\ufeffx}', { x: 'X' }).text).toBe('{\ufeffx}');
  });

  it('substitutes non-ASCII identifiers', () => {
    const result = py('{名前} / {user:café}', { 名前: '太郎', 'user:café': 'crème' });
    expect(result.text).toBe('太郎 / crème');
    expect(result.error).toBeNull();
    expect(result.placeholders.map((p) => p.scope)).toEqual(['session', 'user']);
  });

  it('reports the scope of prefixed names', () => {
    const result = py('{app:a}{user:u}{temp:t}{s}', { 'app:a': 1, 'user:u': 2, 'temp:t': 3, s: 4 });
    expect(result.text).toBe('1234');
    expect(result.placeholders.map((p) => p.scope)).toEqual(['app', 'user', 'temp', 'session']);
  });

  it('never re-expands a value containing braces', () => {
    const result = py('{a} {b}', { a: '{b}', b: '{{a}}' });
    expect(result.text).toBe('{b} {{a}}');
    expect(result.placeholders).toHaveLength(2);
  });

  it('keeps text around and between placeholders with correct offsets', () => {
    const template = 'ab{x}cd{ y? }ef{1x}gh';
    const result = py(template, { x: 'X' });
    expect(result.text).toBe('abXcdef{1x}gh');
    expect(result.placeholders.map((p) => [p.raw, p.start, p.end, p.status])).toEqual([
      ['{x}', 2, 5, 'resolved'],
      ['{ y? }', 7, 13, 'optional-missing'],
      ['{1x}', 15, 19, 'verbatim'],
    ]);
    for (const p of result.placeholders) expect(template.slice(p.start, p.end)).toBe(p.raw);
  });

  it('returns the template unchanged with no placeholders', () => {
    expect(py('no braces } { here', {})).toEqual({ text: 'no braces } { here', placeholders: [], error: null });
  });
});

describe('renderTemplate: missing keys and optional', () => {
  it('{x?} missing renders empty, no error', () => {
    const result = py('[{x?}]');
    expect(result.text).toBe('[]');
    expect(result.error).toBeNull();
    expect(result.placeholders[0]).toEqual({
      raw: '{x?}',
      start: 1,
      end: 5,
      name: 'x',
      optional: true,
      status: 'optional-missing',
      scope: 'session',
      rendered: '',
    });
  });

  it('{x?} present renders the value', () => {
    expect(py('[{x?}]', { x: 'v' })).toMatchObject({ text: '[v]', error: null });
    expect(py('[{x?}]', { x: 'v' }).placeholders[0]).toMatchObject({ optional: true, status: 'resolved', value: 'v' });
  });

  it("missing required key is ADK's exact error and renders empty in the preview", () => {
    const result = py('Hi {name}, {other}.', {});
    expect(result.error).toBe('Context variable not found: `name`.');
    expect(result.text).toBe('Hi , .');
    expect(result.placeholders.map((p) => p.error)).toEqual([
      'Context variable not found: `name`.',
      'Context variable not found: `other`.',
    ]);
    expect(result.placeholders[0]?.status).toBe('missing');
  });

  it('the error names the key with its prefix and without ? or spaces', () => {
    expect(py('{ user:pref }').error).toBe('Context variable not found: `user:pref`.');
    expect(py('{{app:x}}').error).toBe('Context variable not found: `app:x`.');
  });

  it('reports the first error in template order', () => {
    expect(py('{b} {a}', {}).error).toBe('Context variable not found: `b`.');
    expect(py('{a?} {artifact.f} {b}', {}).error).toBe('Artifact service is not initialized.');
  });

  it('has no fallback between {k} and {app:k}', () => {
    expect(py('{app:x}', { x: 'session' }).error).toBe('Context variable not found: `app:x`.');
    expect(py('{x}', { 'app:x': 'app' }).error).toBe('Context variable not found: `x`.');
    expect(py('{x}|{app:x}|{user:x}', { x: 's', 'app:x': 'a', 'user:x': 'u' }).text).toBe('s|a|u');
  });

  it('{x??} and {x ?} are not optional names: left verbatim', () => {
    expect(py('{x??}', { x: 'v' })).toMatchObject({ text: '{x??}', error: null });
    expect(py('{x ?}', { x: 'v' })).toMatchObject({ text: '{x ?}', error: null });
    expect(py('{ x? }', {})).toMatchObject({ text: '', error: null });
  });

  it('uses own keys only: {constructor} is missing, {toString?} is empty', () => {
    expect(py('{constructor}', {}).error).toBe('Context variable not found: `constructor`.');
    expect(py('[{toString?}]', {}).text).toBe('[]');
    expect(py('[{hasOwnProperty?}]', {}).placeholders[0]?.status).toBe('optional-missing');
  });

  it('resolves __proto__ and constructor when stored as own keys', () => {
    const state = JSON.parse('{"__proto__": "p", "constructor": {"a": 1}}') as StateRecord;
    expect(py('{__proto__}|{constructor}', state)).toMatchObject({ text: "p|{'a': 1}", error: null });
    expect(ts('{__proto__}|{constructor}', state).text).toBe('p|{"a":1}');
  });

  it('works on a null-prototype state object', () => {
    const state = Object.create(null) as StateRecord;
    state.k = 'v';
    expect(py('{k}', state).text).toBe('v');
  });
});

describe('renderTemplate: verbatim', () => {
  it.each([
    ['{foo bar}'],
    ['{a:b:c}'],
    ['{user.name}'],
    ['{1x}'],
    ['{}'],
    ['{{}}'],
    ['{"a": 1}'],
    ['{APP:x}'],
    ['{app:}'],
    ['{?}'],
    ['{a-b}'],
  ])('leaves %s exactly as written', (raw) => {
    const result = py(`<${raw}>`, { 'foo bar': 1, 'user.name': 1, '1x': 1, 'APP:x': 1, 'a-b': 1 });
    expect(result.text).toBe(`<${raw}>`);
    expect(result.error).toBeNull();
    expect(result.placeholders).toHaveLength(1);
    expect(result.placeholders[0]).toMatchObject({ raw, status: 'verbatim', rendered: raw });
  });

  it('gives verbatim placeholders a null name only when empty', () => {
    expect(py('{}').placeholders[0]?.name).toBeNull();
    expect(py('{ ? }').placeholders[0]).toMatchObject({ name: null, optional: true });
    expect(py('{foo bar}').placeholders[0]?.name).toBe('foo bar');
  });

  it('leaves JSON in an instruction alone while substituting around it', () => {
    const result = py('Reply as {"answer": "{x}"} for {x}', { x: 'X' });
    // `{"answer": "{` is not a match (contains `{`); `{x}` inside is substituted.
    expect(result.text).toBe('Reply as {"answer": "X"} for X');
  });
});

describe('renderTemplate: artifacts', () => {
  it('errors when there is no artifact service, even when optional', () => {
    for (const artifacts of [undefined, null]) {
      const result = py('[{artifact.report}]', {}, artifacts);
      expect(result.error).toBe('Artifact service is not initialized.');
      expect(result.text).toBe('[]');
      expect(result.placeholders[0]).toMatchObject({ name: 'artifact.report', artifactName: 'report', status: 'artifact-missing' });
    }
    expect(py('{artifact.report?}', {}, null).error).toBe('Artifact service is not initialized.');
  });

  it('inserts artifact text as is, never re-expanded', () => {
    const result = py('<{artifact.notes.txt}>', {}, { 'notes.txt': 'say {x} and {artifact.y}' });
    expect(result).toMatchObject({ text: '<say {x} and {artifact.y}>', error: null });
    expect(result.placeholders[0]).toEqual({
      raw: '{artifact.notes.txt}',
      start: 1,
      end: 21,
      name: 'artifact.notes.txt',
      optional: false,
      artifactName: 'notes.txt',
      status: 'artifact',
      value: 'say {x} and {artifact.y}',
      rendered: 'say {x} and {artifact.y}',
    });
  });

  it('missing artifact: error unless optional', () => {
    expect(py('{artifact.gone}', {}, {}).error).toBe('Artifact gone not found.');
    const optional = py('[{artifact.gone?}]', {}, {});
    expect(optional).toMatchObject({ text: '[]', error: null });
    expect(optional.placeholders[0]?.status).toBe('artifact-missing');
  });

  it('artifact names are not validated as state names', () => {
    expect(py('{artifact.my file}', {}, { 'my file': 'F' }).text).toBe('F');
    expect(py('{artifact.}', {}, {}).error).toBe('Artifact  not found.');
  });

  it('artifact lookups use own keys only', () => {
    expect(py('{artifact.constructor}', {}, {}).error).toBe('Artifact constructor not found.');
  });

  it('artifact text is the same in both dialects', () => {
    expect(ts('{artifact.a}', {}, { a: 'null' }).text).toBe('null');
    expect(py('{artifact.a}', {}, { a: '' }).placeholders[0]?.status).toBe('artifact');
  });
});

describe('formatValue: python dialect', () => {
  it.each<[string, Parameters<typeof formatValue>[0], string]>([
    ['null', null, ''],
    ['true', true, 'True'],
    ['false', false, 'False'],
    ['integer', 2, '2'],
    ['negative integer', -17, '-17'],
    ['negative zero', -0, '0'],
    ['float', 1.5, '1.5'],
    ['float 0.1', 0.1, '0.1'],
    ['small float', 1e-7, '1e-07'],
    ['small float, fixed', 0.0001, '0.0001'],
    ['small float, exponent', 0.00001234, '1.234e-05'],
    ['float with many digits', 123456789012345.6, '123456789012345.6'],
    ['big integer', 1e21, '1000000000000000000000'],
    ['string as is', "it's {x}\n", "it's {x}\n"],
    ['empty list', [], '[]'],
    ['empty dict', {}, '{}'],
    ['dict', { a: 1, b: [true, null] }, "{'a': 1, 'b': [True, None]}"],
    ['nested', { k: { n: [1.5, 'x', false] } }, "{'k': {'n': [1.5, 'x', False]}}"],
    ['list of strings', ['a', "b'c", 'd"e', 'f\'g"h'], `['a', "b'c", 'd"e', 'f\\'g"h']`],
    [
      'escapes',
      ['\\', '\n\t\r', '\u0001\u007f', 'é名', '\u00a0\u200b\u2028', '😀'],
      "['\\\\', '\\n\\t\\r', '\\x01\\x7f', 'é名', '\\xa0\\u200b\\u2028', '😀']",
    ],
  ])('%s', (_label, value, expected) => {
    expect(formatValue(value, 'python')).toBe(expected);
  });

  it('without the JSON text, a float stored as 2.0 renders as 2 (parsed JSON numbers lose int/float)', () => {
    const state = JSON.parse('{"f": 2.0, "l": [2.0]}') as StateRecord;
    expect(py('{f} {l}', state).text).toBe('2 [2]');
  });

  it('given the JSON text, numbers keep its spelling as Python json.loads would: 2.0 is a float, 2 an int', () => {
    const source = '{"f": 2.0, "l": [2.0, 3, -0.0, 1E2, 2.50], "i": 2, "big": 1e16, "d": {"b": 1, "1": 2.0}, "s": "2.0", "n": null}';
    const state = JSON.parse(source) as StateRecord;
    const result = renderTemplate('{f} {l} {i} {big} {d} {s} {n}', state, { dialect: 'python', written: spellJson(source) });
    expect(result.text).toBe("2.0 [2.0, 3, -0.0, 100.0, 2.5] 2 1e+16 {'b': 1, '1': 2.0} 2.0 ");
    expect(result.placeholders[0]?.rendered).toBe('2.0');
    // The TypeScript port prints JS numbers whatever the spelling.
    expect(renderTemplate('{f} {l}', state, { dialect: 'typescript', written: spellJson(source) }).text).toBe('2 [2,3,0,100,2.5]');
  });

  it('given the JSON text, a duplicate key keeps its first place and its last value, as a Python dict does', () => {
    const source = '{"d": {"x": 1, "y": 2, "x": 3.0}, "k": 1, "k": 4.0}';
    const state = JSON.parse(source) as StateRecord;
    expect(renderTemplate('{d} {k}', state, { dialect: 'python', written: spellJson(source) }).text).toBe("{'x': 3.0, 'y': 2} 4.0");
  });

  it('ignores a JSON text that is not the state object (the parsed values stand)', () => {
    const state: StateRecord = { f: 2 };
    expect(renderTemplate('{f}', state, { dialect: 'python', written: spellJson('[2.0]') }).text).toBe('2');
    expect(renderTemplate('{f}', state, { dialect: 'python', written: spellJson('{"f": 2.0') }).text).toBe('2');
  });

  it('pythonFloatRepr follows Python repr exponent rules', () => {
    expect(pythonFloatRepr(1e16)).toBe('1e+16');
    expect(pythonFloatRepr(1e15)).toBe('1000000000000000.0');
    expect(pythonFloatRepr(1.5e16)).toBe('1.5e+16');
    expect(pythonFloatRepr(1e100)).toBe('1e+100');
    expect(pythonFloatRepr(-2.5e-10)).toBe('-2.5e-10');
    expect(pythonFloatRepr(0.001)).toBe('0.001');
    expect(pythonFloatRepr(0)).toBe('0.0');
    expect(pythonFloatRepr(-0)).toBe('-0.0');
    expect(pythonFloatRepr(5e-324)).toBe('5e-324');
    expect(pythonFloatRepr(Infinity)).toBe('inf');
    expect(pythonFloatRepr(Number.NaN)).toBe('nan');
  });

  it('pythonStrRepr picks quotes like Python', () => {
    expect(pythonStrRepr('')).toBe("''");
    expect(pythonStrRepr("'")).toBe('"\'"');
    expect(pythonStrRepr('"')).toBe("'\"'");
    expect(pythonStrRepr('\'"')).toBe("'\\'\"'");
    expect(pythonStrRepr('\u00ad')).toBe("'\\xad'");
    expect(pythonStrRepr('\ud800')).toBe("'\\ud800'");
    expect(pythonStrRepr('\u{e0001}')).toBe("'\\U000e0001'");
  });

  it('dict keys are repr-quoted, including __proto__', () => {
    const value = JSON.parse('{"__proto__": 1, "it\'s": 2}') as StateRecord;
    expect(formatValue(value, 'python')).toBe(`{'__proto__': 1, "it's": 2}`);
  });

  it('renders values inside a template', () => {
    const state: StateRecord = { n: null, b: false, i: 3, f: 0.5, d: { a: 1, b: [true, null] }, s: 'str' };
    expect(py('{n}|{b}|{i}|{f}|{d}|{s}', state).text).toBe("|False|3|0.5|{'a': 1, 'b': [True, None]}|str");
  });
});

describe('formatValue: typescript dialect', () => {
  it.each<[string, Parameters<typeof formatValue>[0], string]>([
    ['null', null, 'null'],
    ['true', true, 'true'],
    ['false', false, 'false'],
    ['integer', 2, '2'],
    ['float', 1.5, '1.5'],
    ['small float', 1e-7, '1e-7'],
    ['big', 1e21, '1e+21'],
    ['string as is', 'a "b"', 'a "b"'],
    ['array', [1, 'x', null], '[1,"x",null]'],
    ['object', { a: 1, b: [true, null] }, '{"a":1,"b":[true,null]}'],
  ])('%s', (_label, value, expected) => {
    expect(formatValue(value, 'typescript')).toBe(expected);
  });

  it('renders values inside a template', () => {
    const state: StateRecord = { n: null, b: false, i: 3, d: { a: 1, b: [true, null] } };
    expect(ts('{n}|{b}|{i}|{d}', state)).toMatchObject({ text: 'null|false|3|{"a":1,"b":[true,null]}', error: null });
  });

  it('uses the same names, errors and verbatim rules as python', () => {
    expect(ts('{x} {y?} {a b}', {})).toMatchObject({ text: '  {a b}', error: 'Context variable not found: `x`.' });
    expect(ts('{{x}}', { x: 1 }).text).toBe('1');
  });

  it('notes where adk-js differs (ASCII-only identifiers, inherited keys)', () => {
    const result = ts('{名前} {user:café} {constructor?} {x}', { 名前: 'a', 'user:café': 'b', x: 'c' });
    expect(result.text).toBe('a b  c');
    expect(result.placeholders[0]?.portNote).toMatch(/ASCII identifiers/);
    expect(result.placeholders[1]?.portNote).toMatch(/ASCII identifiers/);
    expect(result.placeholders[2]?.portNote).toMatch(/inherited/);
    expect(result.placeholders[3]?.portNote).toBeUndefined();
    expect(py('{名前}', { 名前: 'a' }).placeholders[0]?.portNote).toBeUndefined();
  });
});

describe('renderTemplate: misc', () => {
  it('handles a large template with many placeholders', () => {
    const state: StateRecord = {};
    let template = '';
    let expected = '';
    for (let i = 0; i < 500; i += 1) {
      state[`k${i}`] = i;
      template += `{k${i}},`;
      expected += `${i},`;
    }
    const result = py(template, state);
    expect(result.text).toBe(expected);
    expect(result.placeholders).toHaveLength(500);
  });

  it('does not mutate its inputs', () => {
    const state: StateRecord = { x: { a: 1 } };
    const artifacts = { f: 'F' };
    py('{x}{artifact.f}{y?}', state, artifacts);
    expect(state).toEqual({ x: { a: 1 } });
    expect(artifacts).toEqual({ f: 'F' });
  });
});
