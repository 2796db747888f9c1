import type { ConnectivityState } from '../../lib/connectivity';
import { useConnectivity } from '../../lib/use-connectivity';

const LATER = 'The data shown may be out of date; the page refreshes by itself when it is back.';

/**
 * What the banner says, or null when all is well. One dropped live-update stream is ordinary (a
 * restart, a proxy's idle timeout) and reconnects within a second or two: only a second failure in a
 * row is worth a banner.
 */
export function connectionProblem(s: ConnectivityState): string | null {
  if (!s.server) return `The dashboard server cannot be reached. ${LATER}`;
  if (!s.cloud) return `The cloud cannot be reached right now. ${LATER}`;
  if (!s.database) return `The dashboard's database cannot be reached. ${LATER}`;
  if (s.liveUpdateFailures >= 2) {
    return 'Live updates are interrupted: the data shown may be out of date. Reconnecting…';
  }
  return null;
}

/** Across the top of every signed-in page while a part the dashboard needs does not answer. */
export function ConnectionBanner() {
  const problem = connectionProblem(useConnectivity());
  // The live region stays in the page so that screen readers announce the message when it appears.
  return (
    <div role="status" aria-live="polite">
      {problem && (
        <p className="border-b border-amber-300 bg-amber-50 px-4 py-2 text-center text-sm text-amber-900">
          {problem}
        </p>
      )}
    </div>
  );
}
