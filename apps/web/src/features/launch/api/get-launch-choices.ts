import {
  apiPaths,
  type CreateKeyPairRequest,
  createdKeyPairSchema,
  keyPairListSchema,
  networkChoicesSchema,
  quotaUsageListSchema,
  securityGroupChoicesSchema,
} from '@sv/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/* What a launch picks from beyond the catalog: networks, security groups, key pairs, and the quotas it uses. */
export const launchChoiceKeys = {
  networks: ['launch-choices', 'networks'] as const,
  securityGroups: ['launch-choices', 'security-groups'] as const,
  keyPairs: ['launch-choices', 'key-pairs'] as const,
  // Under the servers' and volumes' prefixes would refresh too often; a launch refreshes it itself.
  quotas: ['launch-choices', 'quotas'] as const,
};

export const useNetworkChoices = () =>
  useQuery({
    queryKey: launchChoiceKeys.networks,
    queryFn: () => api('GET', apiPaths.networks, networkChoicesSchema),
  });

export const useSecurityGroupChoices = () =>
  useQuery({
    queryKey: launchChoiceKeys.securityGroups,
    queryFn: () => api('GET', apiPaths.securityGroups, securityGroupChoicesSchema),
  });

export const useKeyPairs = () =>
  useQuery({
    queryKey: launchChoiceKeys.keyPairs,
    queryFn: () => api('GET', apiPaths.keyPairs, keyPairListSchema),
  });

/** The project's quota use, asked afresh each time the wizard opens (other launches change it). */
export const useQuotaUsage = () =>
  useQuery({
    queryKey: launchChoiceKeys.quotas,
    queryFn: () => api('GET', apiPaths.quotas, quotaUsageListSchema),
    staleTime: 0,
  });

/** Imports a public key (with `publicKey`) or has the cloud make a new pair (its private key comes back once). */
export function useCreateKeyPair() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (request: CreateKeyPairRequest) =>
      api('POST', apiPaths.keyPairs, createdKeyPairSchema, request),
    onSuccess: () => void qc.invalidateQueries({ queryKey: launchChoiceKeys.keyPairs }),
  });
}
