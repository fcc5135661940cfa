// The theme choice, shared by the switch in the header and the script that
// applies it before first paint (app/layout.tsx).
export const THEMES = ['light', 'dark', 'system'] as const;
export type Theme = (typeof THEMES)[number];

export const THEME_STORAGE_KEY = 'statehouse-theme';

/**
 * Runs in <head> before the body is parsed, so a stored light or dark choice
 * is on <html> before anything paints (no flash of the other theme).
 * "system" is the absence of the attribute: CSS then follows the OS.
 */
export const THEME_SCRIPT = `(function(){try{var t=localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)});if(t==="light"||t==="dark")document.documentElement.setAttribute("data-theme",t)}catch(e){}})()`;

export function isTheme(value: unknown): value is Theme {
  return typeof value === 'string' && (THEMES as readonly string[]).includes(value);
}
