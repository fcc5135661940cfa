import type { NoteDigest } from '@/lib/session-service/notes';

const SHOWN = 80;

/** A list's notes cell: how many notes and the newest one's beginning, by whom. */
export function NoteDigestCell({ digest }: { digest: NoteDigest | undefined }) {
  if (!digest) return <span className="text-muted">—</span>;
  const { latest, count } = digest;
  const text = latest.text.length > SHOWN ? `${latest.text.slice(0, SHOWN - 1)}…` : latest.text;
  return (
    <span className="block max-w-xs text-xs" title={latest.text}>
      <span className="font-medium">{latest.author}:</span> <span className="break-words">{text}</span>
      {count > 1 ? <span className="text-muted"> (+{count - 1} more)</span> : null}
    </span>
  );
}
