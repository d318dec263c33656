import { useEffect, useState } from 'react';

/** How long typing must pause before a search runs (one filtering per pause). */
export const SEARCH_DEBOUNCE_MS = 250;

/**
 * The value as it was once it stopped changing for `delayMs`. Search fields keep their own state
 * for the input and filter (or query the server) with this, so a burst of keystrokes costs one
 * filtering instead of one per character.
 */
export function useDebouncedValue<T>(value: T, delayMs = SEARCH_DEBOUNCE_MS): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    if (Object.is(value, settled)) return undefined;
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, settled, delayMs]);
  return settled;
}
