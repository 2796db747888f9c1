import {
  apiPaths,
  availabilityZoneListSchema,
  flavorListSchema,
  imageListSchema,
  volumeListSchema,
} from '@sv/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/*
 * What the wizard picks from. These live under the shared prefixes (so an invalidation of
 * `queryKeys.volumes.all` elsewhere refreshes them too) but on keys of their own: other features
 * cache other shapes (e.g. bare arrays) under the bare keys.
 */
const keys = {
  flavors: [...queryKeys.flavors, 'launch'] as const,
  images: [...queryKeys.images, 'launch'] as const,
  zones: [...queryKeys.zones, 'launch'] as const,
  volumes: [...queryKeys.volumes.all, 'launch-candidates'] as const,
};

export const useFlavors = () =>
  useQuery({ queryKey: keys.flavors, queryFn: () => api('GET', apiPaths.flavors, flavorListSchema) });

export const useImages = () =>
  useQuery({ queryKey: keys.images, queryFn: () => api('GET', apiPaths.images, imageListSchema) });

export const useZones = () =>
  useQuery({
    queryKey: keys.zones,
    queryFn: () => api('GET', apiPaths.availabilityZones, availabilityZoneListSchema),
  });

export const useProjectVolumes = () =>
  useQuery({ queryKey: keys.volumes, queryFn: () => api('GET', apiPaths.volumes, volumeListSchema) });
