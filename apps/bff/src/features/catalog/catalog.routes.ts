import {
  availabilityZoneListSchema,
  flavorListSchema,
  imageListSchema,
  volumeTypeListSchema,
} from '@sv/shared';
import { type ApiRoute, route } from '../../platform/route-table.js';
import { catalogService } from './catalog.service.js';

/** What a launch or a new volume picks from: flavors, images, zones, volume types. */
export function catalogRoutes(): ApiRoute[] {
  const catalog = catalogService();
  return [
    route({
      method: 'get',
      path: '/api/volume-types',
      summary: 'Volume types (shared or not)',
      tag: 'catalog',
      response: { schema: volumeTypeListSchema },
      handler: async ({ session }) => ({ types: await catalog.volumeTypes(session) }),
    }),
    route({
      method: 'get',
      path: '/api/flavors',
      summary: 'Flavors',
      tag: 'catalog',
      response: { schema: flavorListSchema },
      handler: async ({ session }) => ({ flavors: await catalog.flavors(session) }),
    }),
    route({
      method: 'get',
      path: '/api/images',
      summary: 'Images',
      tag: 'catalog',
      response: { schema: imageListSchema },
      handler: async ({ session }) => ({ images: await catalog.images(session) }),
    }),
    route({
      method: 'get',
      path: '/api/availability-zones',
      summary: 'Compute availability zones',
      tag: 'catalog',
      response: { schema: availabilityZoneListSchema },
      handler: async ({ session }) => ({ zones: await catalog.zones(session) }),
    }),
  ];
}
