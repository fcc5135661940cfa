import { StoreLink } from '@/components/nav/store-link';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { panelClass } from '@/components/ui/panel';
import type { AuditFilters as Filters } from '@/lib/data/audit-params';
import { AUDIT_PATH } from '@/lib/paths';

const FIELDS: { name: keyof Filters; label: string; placeholder: string; mono?: boolean }[] = [
  { name: 'actor', label: 'Who', placeholder: 'an account name' },
  { name: 'app', label: 'App', placeholder: 'an app id', mono: true },
  { name: 'user', label: 'User', placeholder: 'a user id', mono: true },
  { name: 'key', label: 'Key', placeholder: 'e.g. user:plan', mono: true },
  { name: 'since', label: 'From (UTC)', placeholder: 'YYYY-MM-DD or …THH:MM' },
  { name: 'until', label: 'To (UTC)', placeholder: 'YYYY-MM-DD or …THH:MM' },
];

/** The audit log's filters as a plain GET form: the URL holds them, so a filtered log can be shared. */
export function AuditFilters({ filters }: { filters: Filters }) {
  const active = Object.values(filters).some((value) => value !== undefined);
  return (
    <form method="get" action={AUDIT_PATH} aria-label="Filter the audit log" className={panelClass({ className: 'space-y-3 p-4' })}>
      <div className="grid gap-3 sm:grid-cols-3 lg:grid-cols-6">
        {FIELDS.map((field) => (
          <div key={field.name}>
            <Label htmlFor={`audit-${field.name}`}>{field.label}</Label>
            <Input
              id={`audit-${field.name}`}
              name={field.name}
              defaultValue={filters[field.name] ?? ''}
              placeholder={field.placeholder}
              className={`w-full ${field.mono ? 'font-mono' : ''}`}
            />
          </div>
        ))}
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" variant="primary">
          Filter
        </Button>
        {active ? (
          <StoreLink href={AUDIT_PATH} className="text-sm text-accent hover:underline">
            Clear the filters
          </StoreLink>
        ) : null}
      </div>
    </form>
  );
}
