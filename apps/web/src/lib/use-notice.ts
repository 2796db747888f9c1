import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';

/** How long a "requested" notice stays: long enough to read, gone before it goes stale. */
export const NOTICE_MS = 8_000;

/**
 * A success banner's text that clears when the user moves on: after NOTICE_MS, and at once when
 * the page's address changes (another volume, another page), so one page's news never shows on the next.
 */
export function useNotice(): [string | null, (notice: string | null) => void] {
  const [notice, setNotice] = useState<string | null>(null);
  const { pathname } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: clears on each change of address
  useEffect(() => setNotice(null), [pathname]);
  useEffect(() => {
    if (notice === null) return;
    const timer = setTimeout(() => setNotice(null), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice]);
  return [notice, setNotice];
}
