/** What a dashboard address names, read back from its path (segments decoded once, as Next does). */
export interface PathTarget {
  appName?: string;
  userId?: string;
  sessionId?: string;
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function targetOf(pathname: string): PathTarget | null {
  const match = /^\/apps\/([^/]+)(?:\/users\/([^/]+)(?:\/sessions\/([^/]+))?)?\/?$/.exec(pathname);
  if (!match) return null;
  const [, app, user, session] = match;
  return {
    appName: app === undefined ? undefined : decode(app),
    userId: user === undefined ? undefined : decode(user),
    sessionId: session === undefined ? undefined : decode(session),
  };
}

/** "session “s1” of user “u” in app “a”", the most specific thing the path names. */
export function describeTarget(target: PathTarget): string {
  const { appName, userId, sessionId } = target;
  if (sessionId !== undefined) return `session “${sessionId}” of user “${userId}” in app “${appName}”`;
  if (userId !== undefined) return `user “${userId}” in app “${appName}”`;
  return `app “${appName}”`;
}
