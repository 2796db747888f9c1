import {
  acceptedSchema,
  apiPaths,
  type CreateSnapshotRequestInput,
  type CreateVolumeFromSnapshotRequest,
  createdVolumeSchema,
  type Snapshot,
  snapshotListSchema,
  snapshotSchema,
} from '@sv/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { isTransitional } from '../../../components/ui/status';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { BUSY_POLL_MS } from './busy';

/** A snapshot on its way (creating, deleting): its list asks again until it settles. */
const anyBusy = (snapshots: Snapshot[] | undefined) => !!snapshots?.some((s) => isTransitional(s.status));

export const getVolumeSnapshots = (volumeId: string) =>
  api('GET', apiPaths.volumeSnapshots(volumeId), snapshotListSchema).then((r) => r.snapshots);

export const getProjectSnapshots = (all: boolean) =>
  api('GET', all ? `${apiPaths.snapshots}?all=1` : apiPaths.snapshots, snapshotListSchema).then(
    (r) => r.snapshots,
  );

export function useVolumeSnapshots(volumeId: string) {
  return useQuery({
    queryKey: queryKeys.snapshots.ofVolume(volumeId),
    queryFn: () => getVolumeSnapshots(volumeId),
    refetchInterval: (q) => (anyBusy(q.state.data) ? BUSY_POLL_MS : false),
  });
}

export function useProjectSnapshots(all: boolean) {
  return useQuery({
    queryKey: queryKeys.snapshots.ofProject(all),
    queryFn: () => getProjectSnapshots(all),
    refetchInterval: (q) => (anyBusy(q.state.data) ? BUSY_POLL_MS : false),
  });
}

export const createSnapshot = ({ volumeId, ...data }: CreateSnapshotRequestInput & { volumeId: string }) =>
  api('POST', apiPaths.volumeSnapshots(volumeId), snapshotSchema, data);

export const deleteSnapshot = (id: string) => api('DELETE', apiPaths.snapshot(id), acceptedSchema);

export const createVolumeFromSnapshot = ({
  snapshotId,
  ...data
}: CreateVolumeFromSnapshotRequest & { snapshotId: string }) =>
  api('POST', apiPaths.snapshotVolumes(snapshotId), createdVolumeSchema, data);

/** Each change refreshes snapshots and volumes (one prefix) and the topology. */
function useSnapshotChange<I, O>(fn: (input: I) => Promise<O>) {
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

export const useCreateSnapshot = () => useSnapshotChange(createSnapshot);
export const useDeleteSnapshot = () => useSnapshotChange(deleteSnapshot);
export const useCreateVolumeFromSnapshot = () => useSnapshotChange(createVolumeFromSnapshot);
