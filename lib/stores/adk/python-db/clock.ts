// The clock a naive timestamp column is on. adk-python writes naive local
// times with `datetime.fromtimestamp(ts)` and reads them back with
// `naive.timestamp()`: both apply the writer's zone rule *at that instant*,
// so a store kept through a daylight-saving change holds rows an hour apart
// in offset. A clock is therefore a zone (its rule per instant), or a fixed
// offset when no zone is known.
export type Clock = { kind: 'zone'; zone: string } | { kind: 'fixed'; offset: number };

export const UTC_CLOCK: Clock = { kind: 'fixed', offset: 0 };

const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(zone: string): Intl.DateTimeFormat {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(zone, format);
  }
  return format;
}

/** Whether this runtime knows the zone by that name (an IANA name such as `Europe/Berlin`). */
export function isKnownZone(zone: string): boolean {
  try {
    formatFor(zone);
    return true;
  } catch {
    return false;
  }
}

/** The zone's offset from UTC (seconds ahead) at an instant, to the second. */
export function zoneOffset(zone: string, seconds: number): number {
  const whole = Math.floor(seconds);
  const parts: Record<string, number> = {};
  for (const part of formatFor(zone).formatToParts(new Date(whole * 1000))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const wall =
    Date.UTC(parts.year ?? 1970, (parts.month ?? 1) - 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0) / 1000;
  return wall - whole;
}

export function offsetAt(clock: Clock, seconds: number): number {
  return clock.kind === 'fixed' ? clock.offset : zoneOffset(clock.zone, seconds);
}

/** `datetime.fromtimestamp(seconds)` on this clock: the wall time, as seconds of a UTC-read naive value. */
export function toWall(clock: Clock, seconds: number): number {
  return seconds + offsetAt(clock, seconds);
}

/**
 * `naive.timestamp()` on this clock: the instant of a wall time. In the
 * hour repeated when clocks go back, Python's default (fold=0) takes the
 * earlier instant; in the hour skipped when they go forward, the offset
 * from before the change.
 */
export function fromWall(clock: Clock, wall: number): number {
  if (clock.kind === 'fixed') return wall - clock.offset;
  const before = zoneOffset(clock.zone, wall - 86_400);
  const after = zoneOffset(clock.zone, wall + 86_400);
  for (const offset of before >= after ? [before, after] : [after, before]) {
    if (zoneOffset(clock.zone, wall - offset) === offset) return wall - offset;
  }
  return wall - before;
}

export function describeClock(clock: Clock): string {
  if (clock.kind === 'zone') return clock.zone;
  if (clock.offset === 0) return 'UTC';
  const sign = clock.offset < 0 ? '-' : '+';
  const minutes = Math.abs(clock.offset) / 60;
  return `UTC${sign}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** A wall time paired with the instant it was written for (from the event's own float timestamp). */
export interface ClockSample {
  wall: number;
  instant: number;
}

/** The whole quarter hours separating a wall time from its instant, or null when it is not a clock offset at all (an odd row). */
export function sampleOffset(sample: ClockSample): number | null {
  const diff = sample.wall - sample.instant;
  const offset = Math.round(diff / 900) * 900;
  // A column of whole seconds (MySQL DATETIME without fsp, as SQLAlchemy's `mariadb` dialect makes it) lost the
  // fraction, truncated (MariaDB) or rounded (MySQL): it agrees within a second.
  const slack = Number.isInteger(sample.wall) ? 0.999999 : 0.002;
  if (Math.abs(offset) > 18 * 3600 || Math.abs(diff - offset) > slack) return null;
  return offset;
}

/** Up to `limit` samples spread over those given (sorted by instant): enough to see every offset the data has. */
function spread(samples: { instant: number; offset: number }[], limit: number): { instant: number; offset: number }[] {
  if (samples.length <= limit) return samples;
  const sorted = [...samples].sort((a, b) => a.instant - b.instant);
  const step = (sorted.length - 1) / (limit - 1);
  return Array.from({ length: limit }, (_, index) => sorted[Math.round(index * step)] as { instant: number; offset: number });
}

export interface LearntClock {
  clock: Clock;
  /** How it was found, for the store's description. */
  how: string;
}

/**
 * The clock that explains the samples. A sample whose column is no clock
 * offset at all from its instant (a far-future or hand-edited row) has no
 * say. The rest must all be explained: by a preferred zone (the
 * operator's, this machine's, UTC), by one fixed offset, or by a zone found
 * among the runtime's (daylight saving shows as two offsets). When nothing
 * explains them all, offsets only a few rows show (one row, or under a
 * tenth) are set aside as odd rows and the rest tried again, so a single
 * row never decides the clock.
 */
export function learnClock(samples: ClockSample[], preferredZones: string[]): LearntClock | null {
  const voted = samples.flatMap((sample) => {
    const offset = sampleOffset(sample);
    return offset === null ? [] : [{ instant: sample.instant, offset }];
  });
  if (voted.length === 0) return null;
  const counts = new Map<number, number>();
  for (const { offset } of voted) counts.set(offset, (counts.get(offset) ?? 0) + 1);
  const common = voted.filter(({ offset }) => {
    const count = counts.get(offset) ?? 0;
    return count * 10 >= voted.length && count >= 2;
  });
  for (const kept of common.length > 0 && common.length < voted.length ? [voted, common] : [voted]) {
    const explained = explain(kept, preferredZones);
    if (explained) return explained;
  }
  const kept = common.length > 0 ? common : voted;
  const newest = kept.reduce((a, b) => (b.instant > a.instant ? b : a));
  const clock: Clock = { kind: 'fixed', offset: newest.offset };
  return { clock, how: `${describeClock(clock)} (the newest rows'; no zone explains all ${kept.length} sampled rows)` };
}

function explain(kept: { instant: number; offset: number }[], preferredZones: string[]): LearntClock | null {
  const offsets = new Set(kept.map(({ offset }) => offset));
  const checks = spread(kept, 24);
  const fits = (zone: string) => checks.every(({ instant, offset }) => zoneOffset(zone, instant) === offset);
  const preferred = preferredZones.filter(isKnownZone).find(fits);
  if (preferred) return { clock: { kind: 'zone', zone: preferred }, how: `zone ${preferred}, which explains the stored rows` };
  if (offsets.size === 1) {
    const clock: Clock = { kind: 'fixed', offset: kept[0]?.offset ?? 0 };
    return { clock, how: `${describeClock(clock)}, learnt from ${kept.length} stored rows` };
  }
  // Zones sharing a rule are interchangeable for these instants: the first in the runtime's (alphabetical) list is taken.
  const zone = Intl.supportedValuesOf('timeZone').find(fits);
  if (!zone) return null;
  return { clock: { kind: 'zone', zone }, how: `zone ${zone}, learnt from ${kept.length} stored rows in ${offsets.size} offsets` };
}
