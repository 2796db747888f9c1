import type { AttachMode } from '@sv/shared';
import { SEED_IMAGE_ID } from '../../../cloud/src/image/seed.js';
import { http, login, type Session } from '../../../cloud/test/helpers/cloud.js';
import type { TestStack } from './stack.js';

/** Zones of the seeded compute hosts, for pinning a server with `zone:host`. */
const ZONE_OF: Record<string, string> = {
  'compute-1': 'nova',
  'compute-2': 'nova',
  'compute-old': 'nova',
  'compute-3': 'az2',
  'ironic-1': 'az2',
};

/**
 * Data made straight through the cloud's OpenStack API (not the BFF), as another client would:
 * volumes, servers (admins may pin one to a host) and attachments, each waited for.
 */
export async function cloudData(stack: TestStack, user: 'demo' | 'admin') {
  const session: Session = await login(stack.cloud, user);
  const call = async (method: string, path: string, version: string, body?: unknown) => {
    const res = await http(stack.cloud, method, path, {
      token: session.token,
      version,
      ...(body !== undefined ? { body } : {}),
    });
    if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
    return res;
  };
  const nova = (method: string, path: string, body?: unknown, version = '2.105') =>
    call(method, `/compute/v2.1${path}`, `compute ${version}`, body);
  const cinder = (method: string, path: string, body?: unknown, version = '3.54') =>
    call(method, `${session.volumeBase}${path}`, `volume ${version}`, body);

  return {
    session,
    nova,
    cinder,
    async volume(name: string, opts: { shared?: boolean; zone?: string } = {}): Promise<string> {
      const res = await cinder('POST', '/volumes', {
        volume: {
          name,
          size: 1,
          ...(opts.shared === false ? {} : { volume_type: 'multiattach' }),
          ...(opts.zone ? { availability_zone: opts.zone } : {}),
        },
      });
      await stack.cloud.settle();
      return res.body.volume.id as string;
    },
    async server(name: string, opts: { host?: string; zone?: string } = {}): Promise<string> {
      const zone = opts.host ? `${ZONE_OF[opts.host] ?? 'nova'}:${opts.host}` : opts.zone;
      const res = await nova(
        'POST',
        '/servers',
        {
          server: {
            name,
            flavorRef: '1',
            imageRef: SEED_IMAGE_ID,
            networks: 'none',
            ...(zone ? { availability_zone: zone } : {}),
          },
        },
        '2.74',
      );
      await stack.cloud.settle();
      return res.body.server.id as string;
    },
    async attach(serverId: string, volumeId: string, mode: AttachMode = 'rw') {
      const res = await nova('POST', `/servers/${serverId}/os-volume_attachments`, {
        volumeAttachment: { volumeId, attach_mode: mode },
      });
      await stack.cloud.settle();
      return res;
    },
    /** The same attach, answered as the cloud answers it (for comparing with a preflight verdict). */
    async tryAttach(serverId: string, volumeId: string, mode: AttachMode = 'rw') {
      const res = await http(stack.cloud, 'POST', `/compute/v2.1/servers/${serverId}/os-volume_attachments`, {
        token: session.token,
        version: 'compute 2.105',
        body: { volumeAttachment: { volumeId, attach_mode: mode } },
      });
      await stack.cloud.settle();
      return res;
    },
  };
}

/** The BFF's server-side session behind a test client's cookie. */
export async function sessionOfClient(stack: TestStack, cookie: string | null) {
  const id = decodeURIComponent((cookie ?? '').split('=')[1] ?? '');
  const session = await stack.sessions.get(id);
  if (!session) throw new Error('no session for this client');
  return session;
}
