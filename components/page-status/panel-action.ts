/** The look of a status panel's main action, a button or a link. */
export const PANEL_ACTION_CLASS =
  'inline-block rounded-md bg-accent px-4 py-2 text-sm font-medium text-accent-foreground hover:bg-accent-hover';
