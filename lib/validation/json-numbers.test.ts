import { describe, expect, it } from 'vitest';
import { findLossyNumber, lossyNumberMessage } from './json-numbers';

describe('numbers JSON.parse would change', () => {
  it('passes numbers that survive parsing', () => {
    for (const text of [
      '{"a": 1, "b": -2.5, "c": 1e300, "d": 9007199254740991, "e": -9007199254740991, "f": 0.000, "g": 1.5e-300}',
      '[12345678901234567.5]',
      '{"in a string": "12345678901234567890 1e999"}',
      '"\\"1e999"',
    ]) {
      expect(findLossyNumber(text), text).toBeNull();
    }
  });

  it('finds overflow, unsafe integers and underflow, with their position', () => {
    expect(lossyNumberMessage('{"a": 1e400}')).toBe('number 1e400 at line 1, column 7 is out of range (beyond ±1.8e308)');
    expect(lossyNumberMessage('{"a":\n -1E+999}')).toBe('number -1E+999 at line 2, column 2 is out of range (beyond ±1.8e308)');
    expect(lossyNumberMessage('[9007199254740993]')).toBe(
      'number 9007199254740993 at line 1, column 2 is an integer too large to store exactly (beyond ±9007199254740991); send it as a string',
    );
    expect(lossyNumberMessage('{"s": "1e400", "n": 2e-400}')).toBe(
      'number 2e-400 at line 1, column 21 is too small to store (it would become 0)',
    );
    expect(findLossyNumber(`[${'9'.repeat(400)}]`)?.problem).toMatch(/^is out of range/);
  });
});
