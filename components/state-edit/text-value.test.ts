import { describe, expect, it } from 'vitest';
import { looksLikeText } from './text-value';

describe('looksLikeText', () => {
  it.each(['enterprise', '2.5.0', '2026-11-25', '2026-11-25T09:00:00Z', '+1 555 0100', '555-0100', '0049 30 1234', '12 apples', 'nul'])(
    '%s is offered as text',
    (text) => expect(looksLikeText(text)).toBe(true),
  );

  it.each(['', '  ', '42', '-1.5', '1e3', 'true', 'null', '"quoted"', '{"a": 1', '[1, 2'])('%s is not', (text) =>
    expect(looksLikeText(text)).toBe(false),
  );
});
