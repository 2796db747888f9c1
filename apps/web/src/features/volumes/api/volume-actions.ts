import {
  acceptedSchema,
  apiPaths,
  type ExtendVolumeRequest,
  type RetypeVolumeRequest,
  type SetBootableRequest,
} from '@sv/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const extendVolume = ({ id, ...data }: ExtendVolumeRequest & { id: string }) =>
  api('POST', apiPaths.volumeExtend(id), acceptedSchema, data);

export const retypeVolume = ({ id, ...data }: RetypeVolumeRequest & { id: string }) =>
  api('POST', apiPaths.volumeRetype(id), acceptedSchema, data);

export const setVolumeBootable = ({ id, ...data }: SetBootableRequest & { id: string }) =>
  api('PUT', apiPaths.volumeBootable(id), acceptedSchema, data);

/** One mutation per action; each refetches the volume (which then polls while it is busy) and the lists. */
function useVolumeAction<T extends { id: string }>(fn: (input: T) => Promise<unknown>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: queryKeys.volumes.all }),
        qc.invalidateQueries({ queryKey: queryKeys.topologyAll }),
      ]),
  });
}

export const useExtendVolume = () => useVolumeAction(extendVolume);
export const useRetypeVolume = () => useVolumeAction(retypeVolume);
export const useSetVolumeBootable = () => useVolumeAction(setVolumeBootable);
