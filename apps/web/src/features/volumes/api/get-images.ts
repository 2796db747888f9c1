import { apiPaths, imageListSchema } from '@sv/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const getImages = () => api('GET', apiPaths.images, imageListSchema).then((r) => r.images);

export function useImages(enabled = true) {
  return useQuery({ queryKey: queryKeys.images, queryFn: getImages, staleTime: 5 * 60_000, enabled });
}
