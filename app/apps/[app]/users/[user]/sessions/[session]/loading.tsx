import { Panel } from '@/components/ui/panel';
/** Shown while the server reads the session (the page streams in when its first data is ready). */
export default function SessionLoading() {
  return (
    <div role="status" aria-label="Loading session" className="animate-pulse space-y-6">
      <div className="h-4 w-72 rounded bg-surface-muted" />
      <div className="space-y-2">
        <div className="h-3 w-16 rounded bg-surface-muted" />
        <div className="h-7 w-96 max-w-full rounded bg-surface-muted" />
      </div>
      <div className="grid gap-3 md:grid-cols-2 xl:grid-cols-4">
        {[0, 1, 2, 3].map((column) => (
          <Panel key={column} className="h-48" />
        ))}
      </div>
      <Panel className="h-[50vh]" />
      <span className="sr-only">Loading session…</span>
    </div>
  );
}
