'use client';

import { createContext, useContext } from 'react';

/**
 * Whether the controls inside a list row are in the tab order. A list with
 * roving focus (one tab stop, arrow keys between rows) leaves only the active
 * row's controls in it, so dozens of Copy buttons are not dozens of tab stops.
 */
export const RowTabStop = createContext(true);

/** The tabIndex for a control inside a row: unset in the active row (or outside any list), -1 elsewhere. */
export function useRowTabIndex(): -1 | undefined {
  return useContext(RowTabStop) ? undefined : -1;
}
