import { describe, expect, it } from 'vitest';
import { revisionText } from './revision-text';

describe('revisionText', () => {
  it('shows a counter as a number', () => {
    expect(revisionText(12).text).toBe('12');
    expect(revisionText(1234).text).toBe('1,234');
  });

  it("shows an ADK store's clock revision as the update time it is, not as 1,795,625,697,796,000", () => {
    const shown = revisionText(1_795_625_697_796_123);
    expect(shown.text).toBe('16:54:57.796123 UTC');
    expect(shown.title).toContain('1795625697796123 µs');
  });
});
