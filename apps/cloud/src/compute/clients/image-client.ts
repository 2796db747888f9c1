import type { Image, ImageApi } from '../../image/index.js';

export type { Image } from '../../image/index.js';

/** Nova's client of the image service (`nova/image/glance.py`): the only way compute reads images. */
export function createImageClient(api: ImageApi) {
  return {
    get: (imageId: string): Promise<Image | undefined> => api.get(imageId),
    /** The images of these ids, by id. */
    async byIds(imageIds: readonly string[]): Promise<Map<string, Image>> {
      return new Map((await api.getMany(imageIds)).map((i) => [i.id, i]));
    },
  };
}

export type ImageClient = ReturnType<typeof createImageClient>;
