import { apiPaths, type LaunchRequest, launchSchema } from '@sv/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { launchChoiceKeys } from './get-launch-choices';

/** POST /api/launches: answers 202 with the launch, which then runs in the background. */
export function useStartLaunch() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (request: LaunchRequest) => api('POST', apiPaths.launches, launchSchema, request),
    onSuccess: (launch) => {
      qc.setQueryData(queryKeys.launch(launch.id), launch);
      void qc.invalidateQueries({ queryKey: queryKeys.servers.all });
      void qc.invalidateQueries({ queryKey: queryKeys.volumes.all });
      // The servers it makes count against the project's quota.
      void qc.invalidateQueries({ queryKey: launchChoiceKeys.quotas });
    },
  });
}
