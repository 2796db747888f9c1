import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import { type ConnectivityState, type ConnectivityTiming, connectivity } from './connectivity';

/** The current connectivity, re-rendering when it changes. */
export function useConnectivity(): ConnectivityState {
  return useSyncExternalStore(connectivity.subscribe, connectivity.getState);
}

/**
 * While mounted (the signed-in frame): watches GET /api/health, and when a part that was down answers
 * again refetches every query on screen, so pages that failed meanwhile recover by themselves.
 */
export function useConnectivityWatch(timing: Partial<ConnectivityTiming> = {}): void {
  const qc = useQueryClient();
  const { healthyIntervalMs, minBackoffMs, maxBackoffMs } = timing;
  useEffect(() => {
    const stop = connectivity.start({
      ...(healthyIntervalMs !== undefined ? { healthyIntervalMs } : {}),
      ...(minBackoffMs !== undefined ? { minBackoffMs } : {}),
      ...(maxBackoffMs !== undefined ? { maxBackoffMs } : {}),
    });
    const forget = connectivity.onRecovered(() => void qc.invalidateQueries());
    return () => {
      forget();
      stop();
    };
  }, [qc, healthyIntervalMs, minBackoffMs, maxBackoffMs]);
}
