import { apiPaths, launchSchema } from '@sv/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** How often the progress view asks while a launch runs. */
export const LAUNCH_POLL_MS = 1_000;

/** One launch, asked for every second until it has finished. */
export const useLaunch = (id: string) =>
  useQuery({
    queryKey: queryKeys.launch(id),
    queryFn: () => api('GET', apiPaths.launch(id), launchSchema),
    refetchInterval: (q) => (q.state.data?.status === 'running' ? LAUNCH_POLL_MS : false),
    // This page is the progress view: keep following it when the tab is in the background.
    refetchIntervalInBackground: true,
    staleTime: 0,
  });
