import { describe, expect, it } from 'vitest';
import { buttonClass } from './button';
import { cx } from './cx';

describe('cx', () => {
  it('joins the classes that are set', () => {
    expect(cx('a', false, null, undefined, 'b')).toBe('a b');
  });

  it("lets a caller's class replace the primitive's own of the same kind", () => {
    expect(cx('px-2 py-1', 'px-4')).toBe('py-1 px-4');
    expect(cx('rounded-md bg-accent', 'rounded-full bg-surface')).toBe('rounded-full bg-surface');
    expect(cx('text-muted', 'text-danger')).toBe('text-danger');
    expect(cx('border-border', 'border-danger')).toBe('border-danger');
  });

  it("keeps classes of different kinds, the console's theme colours among them", () => {
    expect(cx('text-sm text-accent-foreground', 'text-xs')).toBe('text-accent-foreground text-xs');
    expect(cx('border border-border', 'border-dashed')).toBe('border border-border border-dashed');
  });

  it('lets a button be resized by its caller', () => {
    const classes = buttonClass({ size: 'sm', className: 'px-2 py-0.5' }).split(' ');
    expect(classes).toContain('px-2');
    expect(classes).not.toContain('px-3');
    expect(classes).not.toContain('py-1.5');
  });
});
