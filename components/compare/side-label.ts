import type { CompareSide } from '@/lib/paths';

/** A side in a few words: "session s1", "user alice of support-bot"; names the app and user only when the other side's differ. */
export function sideLabel(side: CompareSide, other: CompareSide): string {
  const where: string[] = [];
  if (side.userId !== other.userId || side.appName !== other.appName || side.sessionId === undefined) where.push(`user ${side.userId}`);
  if (side.appName !== other.appName) where.push(`app ${side.appName}`);
  const place = where.join(' of ');
  if (side.sessionId === undefined) return place;
  return place ? `session ${side.sessionId} (${place})` : `session ${side.sessionId}`;
}
