import type { VolumeType } from '@sv/shared';
import { listVolumeTypes } from '../../openstack/cinder.js';
import { cloudFor } from '../../openstack/cloud-client.js';
import { listImages } from '../../openstack/glance.js';
import { listFlavors, listZones } from '../../openstack/nova.js';
import type { SessionData } from '../../platform/session-store.js';

/** What a user picks from when creating volumes and servers. */
export function catalogService() {
  return {
    async flavors(session: SessionData) {
      const flavors = await listFlavors(cloudFor(session));
      return flavors.map((f) => ({
        id: f.id,
        name: f.name,
        vcpus: f.vcpus,
        ramMb: f.ramMb,
        diskGb: f.diskGb,
      }));
    },

    async images(session: SessionData) {
      const images = await listImages(cloudFor(session));
      return images.map((i) => ({ id: i.id, name: i.name, status: i.status, sizeBytes: i.sizeBytes }));
    },

    async zones(session: SessionData) {
      const zones = await listZones(cloudFor(session));
      return zones.map((z) => ({ name: z.name, available: z.available }));
    },

    async volumeTypes(session: SessionData): Promise<VolumeType[]> {
      const types = await listVolumeTypes(cloudFor(session));
      return types.map((t) => ({
        id: t.id,
        name: t.name,
        description: t.description,
        shared: t.multiattach,
      }));
    },
  };
}
