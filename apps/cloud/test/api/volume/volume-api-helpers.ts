import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { type HttpResult, http, type Session, type TestCloud } from '../../helpers/cloud.js';

/** Calls under a session's /volume/v3/{project_id}, with `volume <version>` (3.70 by default). */
export function volumeClient(tc: TestCloud, session: Session) {
  const call = (
    method: string,
    path: string,
    opts: { version?: string | null; body?: unknown; rawBody?: string } = {},
  ): Promise<HttpResult> =>
    http(tc, method, `${session.volumeBase}${path}`, {
      token: session.token,
      ...(opts.version === null ? {} : { version: `volume ${opts.version ?? '3.70'}` }),
      ...(opts.body !== undefined ? { body: opts.body } : {}),
      ...(opts.rawBody !== undefined ? { rawBody: opts.rawBody } : {}),
    });

  /** Creates a volume and waits for the backend: it is `available` on return. */
  const createVolume = async (volume: Record<string, unknown> = {}): Promise<string> => {
    const res = await call('POST', '/volumes', { body: { volume: { size: 1, ...volume } } });
    expect(res.status, res.text).toBe(202);
    await tc.settle();
    return res.body.volume.id as string;
  };

  const show = async (id: string, version = '3.70') =>
    (await call('GET', `/volumes/${id}`, { version })).body.volume;

  const action = (id: string, body: unknown, version = '3.70') =>
    call('POST', `/volumes/${id}/action`, { body, version });

  /**
   * Attaches through the attachments API as Nova does: reserve with a connector (attaching),
   * then os-complete (attached, volume in-use). Returns the attachment id.
   */
  const attach = async (volumeId: string, serverId: string = randomUUID(), host = 'compute-1') => {
    const res = await call('POST', '/attachments', {
      body: {
        attachment: {
          volume_uuid: volumeId,
          instance_uuid: serverId,
          connector: {
            initiator: `iqn.1993-08.org.debian:01:${host}`,
            host,
            mountpoint: '/dev/vdb',
            platform: 'x86_64',
          },
        },
      },
    });
    expect(res.status, res.text).toBe(200);
    const id = res.body.attachment.id as string;
    const done = await call('POST', `/attachments/${id}/action`, { body: { 'os-complete': null } });
    expect(done.status, done.text).toBe(204);
    return id;
  };

  /** A reservation without a connector: the volume goes `reserved`. */
  const reserve = async (volumeId: string, serverId: string = randomUUID()) => {
    const res = await call('POST', '/attachments', {
      body: { attachment: { volume_uuid: volumeId, instance_uuid: serverId } },
    });
    expect(res.status, res.text).toBe(200);
    return res.body.attachment.id as string;
  };

  return { call, createVolume, show, action, attach, reserve };
}

/** Cinder's fault body. */
export const fault = (code: number, message: string) => {
  const name = (
    { 400: 'badRequest', 403: 'forbidden', 404: 'itemNotFound', 409: 'conflictingRequest' } as Record<
      number,
      string
    >
  )[code];
  return { [name ?? 'computeFault']: { code, message } };
};
