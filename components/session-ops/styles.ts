import { buttonClass } from '@/components/ui/button';

export const button = buttonClass({ variant: 'secondary' });
export const primaryButton = buttonClass({ variant: 'primary' });
export const dangerButton = buttonClass({ variant: 'danger' });
export const input = 'w-full rounded-md border border-border bg-background px-2 py-1 text-sm';
export const label = 'block text-xs font-medium text-muted';
export const panel = 'space-y-3 rounded-lg border border-border bg-surface p-4 shadow-sm';
