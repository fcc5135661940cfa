import { buttonClass } from '@/components/ui/button';
import { cardClass } from '@/components/ui/card';
import { inputClass } from '@/components/ui/field';

export const button = buttonClass({ variant: 'secondary' });
export const primaryButton = buttonClass({ variant: 'primary' });
export const dangerButton = buttonClass({ variant: 'danger' });
export const input = inputClass({ className: 'w-full px-2 py-1 text-sm' });
export const label = 'block text-xs font-medium text-muted';
export const panel = cardClass({ className: 'space-y-3 p-4' });
