import { describe, expect, it } from 'vitest';
import { freeTextProblem, hasLoneSurrogate, idProblem, nameProblem } from './text';

describe('text checks', () => {
  it('finds unpaired surrogates only', () => {
    expect(hasLoneSurrogate('plain ascii, ünïcödé, 😀')).toBe(false);
    expect(hasLoneSurrogate('\ud800')).toBe(true);
    expect(hasLoneSurrogate('a\udc00b')).toBe(true);
    expect(hasLoneSurrogate('\ud83d')).toBe(true);
    expect(hasLoneSurrogate('\ude00\ud83d')).toBe(true);
  });

  it('accepts ordinary ids and refuses what URLs and storage cannot hold', () => {
    for (const id of ['s1', 'user@example.com', '0f5c-uuid', 'my session', 'Zoë', 'a.b', '...', 'a:b?c#d%2F']) {
      expect(idProblem(id), id).toBeNull();
    }
    expect(idProblem('a/b')).toBe('must not contain "/" or "\\"');
    expect(idProblem('..\\x')).toBe('must not contain "/" or "\\"');
    expect(idProblem('..')).toBe('must not be ".." (it cannot be addressed in a URL)');
    expect(idProblem('.')).toBe('must not be "." (it cannot be addressed in a URL)');
    expect(idProblem(' s1')).toBe('must not start or end with whitespace');
    expect(idProblem('a\u0000b')).toBe('must not contain control characters');
    expect(idProblem('a\u0085b')).toBe('must not contain control characters');
    expect(idProblem('admin\u202etxt.exe')).toBe('must not contain bidirectional control characters');
    expect(idProblem('\ud800')).toBe('must be valid Unicode (it contains an unpaired surrogate)');
  });

  it('lets names hold slashes and free text hold line breaks', () => {
    expect(nameProblem('agent/sub')).toBeNull();
    expect(nameProblem('a\tb')).toBe('must not contain control characters');
    expect(freeTextProblem('line one\nline two\ttabbed\r\n')).toBeNull();
    expect(freeTextProblem('nul \u0000')).toBe('must not contain control characters other than tabs and line breaks');
  });
});
