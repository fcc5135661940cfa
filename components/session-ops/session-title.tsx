/** A session's title and labels under its id in the lists; nothing when it has neither. */
export function SessionTitle({ title, labels }: { title?: string | null; labels?: string[] }) {
  if (!title && !labels?.length) return null;
  return (
    <span className="mt-0.5 flex flex-wrap items-center gap-1 text-xs text-muted">
      {title ? <span className="text-foreground">{title}</span> : null}
      {labels?.map((label) => (
        <span key={label} className="rounded-full border border-border px-1.5 font-mono text-[11px]">
          {label}
        </span>
      ))}
    </span>
  );
}
