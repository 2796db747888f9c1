import type { AttachMode } from '@sv/shared';
import { onlyHosts } from '../../../cloud/test/api/compute/servers-fixtures.js';
import { http, login, type Session } from '../../../cloud/test/helpers/cloud.js';
import { SEED_IMAGE_ID } from '../../../cloud/src/image/seed.js';
import type { TestStack } from './stack.js';

/** Volumes and servers made straight through the cloud's API, so the BFF routes under test only read them. */
export function inventory(stack: TestStack) {
  const tc = stack.cloud;
  const sessions = new Map<string, Session>();
  const as = async (user: string) => {
    let s = sessions.get(user);
    if (!s) {
      s = await login(tc, user);
      sessions.set(user, s);
    }
    return s;
  };
  return {
    as,
    imageId: SEED_IMAGE_ID,
    /** Only hosts that take shared volumes and attach modes, so scheduling cannot surprise a test. */
    modernHostsOnly: () => onlyHosts(tc, ['compute-1', 'compute-2']),
    async volume(
      user: string,
      name: string,
      opts: { shared?: boolean; size?: number } = {},
    ): Promise<string> {
      const s = await as(user);
      const res = await http(tc, 'POST', `${s.volumeBase}/volumes`, {
        token: s.token,
        body: {
          volume: { name, size: opts.size ?? 1, ...(opts.shared ? { volume_type: 'multiattach' } : {}) },
        },
      });
      if (res.status !== 202) throw new Error(`volume create: ${res.status} ${res.text}`);
      await tc.settle();
      return res.body.volume.id as string;
    },
    async server(user: string, name: string): Promise<string> {
      const s = await as(user);
      const res = await http(tc, 'POST', '/compute/v2.1/servers', {
        token: s.token,
        version: 'compute 2.60',
        body: { server: { name, flavorRef: '1', imageRef: SEED_IMAGE_ID, networks: 'none' } },
      });
      if (res.status !== 202) throw new Error(`server create: ${res.status} ${res.text}`);
      await tc.settle();
      return res.body.server.id as string;
    },
    /** Attach through the cloud's API at 2.105. */
    async attach(user: string, serverId: string, volumeId: string, mode: AttachMode = 'rw') {
      const s = await as(user);
      const res = await http(tc, 'POST', `/compute/v2.1/servers/${serverId}/os-volume_attachments`, {
        token: s.token,
        version: 'compute 2.105',
        body: { volumeAttachment: { volumeId, attach_mode: mode } },
      });
      if (res.status !== 202) throw new Error(`attach: ${res.status} ${res.text}`);
      await tc.settle();
    },
  };
}
