import type { CloudDeps } from '../deps.js';
import type { ImageClient } from './clients/image-client.js';
import type { NetworkClient } from './clients/network-client.js';
import type { VolumeClient } from './clients/volume-client.js';

/** What compute's code is built from: the platform, and its clients of the other services. */
export interface ComputeDeps extends CloudDeps {
  volumes: VolumeClient;
  images: ImageClient;
  network: NetworkClient;
  /** Keystone's answer to "does this project exist?" (`identity.verify_project_id`). */
  projectExists?: (id: string) => Promise<boolean>;
}
