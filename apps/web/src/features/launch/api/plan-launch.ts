import { apiPaths, type LaunchRequest, launchPlanSchema } from '@sv/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const launchPlanKeys = {
  all: ['launch-plan'] as const,
  of: (request: LaunchRequest | null) => ['launch-plan', request] as const,
};

/** The pre-flight: what the launch will send, and what stands in its way. Always asked afresh. */
export const useLaunchPlan = (request: LaunchRequest | null) =>
  useQuery({
    queryKey: launchPlanKeys.of(request),
    queryFn: () => api('POST', apiPaths.launchPlan, launchPlanSchema, request),
    enabled: request !== null,
    staleTime: 0,
    gcTime: 60_000,
  });
