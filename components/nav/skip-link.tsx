/** Hidden until focused, then a button-like link at the top left. */
export const SKIP_LINK_CLASS =
  'sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-3 focus:z-50 focus:rounded-md focus:bg-accent focus:px-3 focus:py-2 focus:text-sm focus:font-medium focus:text-accent-foreground';

/** The first stop for keyboard users: straight past the header to the page. */
export function SkipLink({ target }: { target: string }) {
  return (
    <a href={`#${target}`} className={SKIP_LINK_CLASS}>
      Skip to content
    </a>
  );
}

/** The session page's timeline, for its skip link. */
export const TIMELINE_ID = 'timeline';

/** The session page's first stop inside the page: past the state columns (dozens of stops) to the events. */
export function SkipToTimeline() {
  return (
    <a href={`#${TIMELINE_ID}`} className={SKIP_LINK_CLASS}>
      Skip to the timeline
    </a>
  );
}
