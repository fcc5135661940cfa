import { describe, expect, it } from 'vitest';
import { fromRecord, parseSessionUrl, sessionUrlSearch } from './session-url';

const parse = (search: string) => {
  const params = new URLSearchParams(search);
  return parseSessionUrl((name) => params.get(name));
};

describe('session page URL state', () => {
  it('round-trips the selected event, the compared one and the filters', () => {
    const state = parse('?event=37&compare=12&author=agent&invocation=e-1&key=user%3Aplan&text=refund');
    expect(state).toEqual({
      event: 37,
      compare: 12,
      filters: { author: 'agent', invocationId: 'e-1', key: 'user:plan', text: 'refund', tool: null, errors: false, from: null, to: null },
    });
    expect(sessionUrlSearch(state)).toBe('?event=37&compare=12&author=agent&invocation=e-1&key=user%3Aplan&text=refund');
    expect(parse(sessionUrlSearch(state))).toEqual(state);
  });

  it('round-trips the tool, errors and time range filters', () => {
    const state = parse('?tool=lookup_order&errors=1&from=1790000000.5&to=1790000100');
    expect(state.filters).toMatchObject({ tool: 'lookup_order', errors: true, from: 1790000000.5, to: 1790000100 });
    expect(sessionUrlSearch(state)).toBe('?tool=lookup_order&errors=1&from=1790000000.5&to=1790000100');
    expect(parse('?from=yesterday&errors=0').filters).toMatchObject({ from: null, errors: false });
  });

  it('ignores what cannot be an event and a comparison without a selection', () => {
    for (const bad of ['0', '-1', '1.5', 'abc', '1e3', '9999999999999999']) {
      expect(parse(`?event=${bad}`).event).toBeNull();
    }
    expect(parse('?compare=3').compare).toBeNull();
    expect(parse('?event=3&compare=3').compare).toBeNull();
    expect(parse('?author=').filters.author).toBeNull();
    expect(sessionUrlSearch(parse(''))).toBe('');
  });

  it('reads a page searchParams record, first value of a repeated one', () => {
    const state = parseSessionUrl(fromRecord({ event: ['5', '6'], key: 'topic' }));
    expect(state.event).toBe(5);
    expect(state.filters.key).toBe('topic');
  });
});
