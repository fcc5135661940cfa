/**
 * Revisions beyond this are clocks, not counters: an ADK store's revision is
 * the session's update time in microseconds (what ADK's own stale check
 * compares), about 1.8e15 today; no counter gets near 1e12.
 */
const CLOCK_REVISION = 1e12;

/** A revision as people read it: a counter as a number; a clock as the UTC time it is, to the microsecond. */
export function revisionText(revision: number): { text: string; title?: string } {
  if (revision < CLOCK_REVISION) return { text: revision.toLocaleString('en') };
  const micros = String(Math.round(revision % 1_000_000)).padStart(6, '0');
  const time = new Date(Math.floor(revision / 1000)).toISOString().slice(11, 19);
  return {
    text: `${time}.${micros} UTC`,
    title: `This store counts revisions by the session's update time (${revision} µs since 1970), as ADK compares them`,
  };
}
