import { apiPaths, launchListSchema, launchSchema } from '@sv/shared';
import { useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { api } from '../../../lib/api-client';
import { connectivity } from '../../../lib/connectivity';
import { queryKeys } from '../../../lib/query-keys';

/**
 * How often the progress view asks while a launch runs and the live-update stream is down. While
 * the stream is open it does not poll: each change of the launch arrives on the stream
 * (`kind: "launch"`), which refreshes it.
 */
export const LAUNCH_FALLBACK_POLL_MS = 3_000;

/** Whether the live-update stream is open now. */
export const useLiveUpdatesOpen = () =>
  useSyncExternalStore(connectivity.subscribe, () => connectivity.liveUpdatesOpen);

/** One launch: refreshed by the live-update stream, polled slowly only while the stream is down. */
export const useLaunch = (id: string) => {
  const live = useLiveUpdatesOpen();
  return useQuery({
    queryKey: queryKeys.launch(id),
    queryFn: () => api('GET', apiPaths.launch(id), launchSchema),
    refetchInterval: (q) => (q.state.data?.status === 'running' && !live ? LAUNCH_FALLBACK_POLL_MS : false),
    // This page is the progress view: keep following it when the tab is in the background.
    refetchIntervalInBackground: true,
    staleTime: 0,
  });
};

/** The project's recent launches, newest first (refreshed by the live-update stream). */
export const useLaunches = () =>
  useQuery({
    queryKey: queryKeys.launches,
    queryFn: () => api('GET', apiPaths.launches, launchListSchema),
  });
