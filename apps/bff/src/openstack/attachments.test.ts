import { describe, expect, it } from 'vitest';
import { holdsOnServer, joinHolds } from './attachments.js';
import type { CinderAttachment, CinderVolume } from './cinder.js';
import type { NovaAttachment, NovaServer } from './nova.js';

const volume = (over: Partial<CinderVolume> = {}): CinderVolume => ({
  id: 'vol-1',
  name: 'data',
  description: null,
  sizeGb: 1,
  status: 'in-use',
  typeName: 'multiattach',
  multiattach: true,
  bootable: false,
  readonly: false,
  availabilityZone: 'nova',
  projectId: 'p1',
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: null,
  attachments: [],
  ...over,
});

const server = (over: Partial<NovaServer> = {}): NovaServer => ({
  id: 'srv-1',
  name: 'web-1',
  status: 'ACTIVE',
  taskState: null,
  vmState: 'active',
  projectId: 'p1',
  flavor: { id: '1', name: 'm1.tiny', vcpus: 1, ramMb: 512 },
  imageId: null,
  availabilityZone: 'nova',
  host: 'compute-1',
  hostId: 'h1',
  fault: null,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: null,
  reservationId: null,
  volumeIds: ['vol-1'],
  addresses: [],
  keyName: null,
  securityGroups: [],
  ...over,
});

const record = (over: Partial<CinderAttachment> = {}): CinderAttachment => ({
  id: 'att-1',
  volumeId: 'vol-1',
  serverId: 'srv-1',
  status: 'attached',
  mode: null,
  attachedAt: '2026-01-02T00:00:00Z',
  detachedAt: null,
  ...over,
});

const novaAttachment = (over: Partial<NovaAttachment> = {}): NovaAttachment => ({
  serverId: 'srv-1',
  volumeId: 'vol-1',
  device: '/dev/vdb',
  attachmentId: 'att-1',
  bdmId: 'bdm-1',
  mode: 'ro',
  deleteOnTermination: false,
  ...over,
});

describe('joinHolds', () => {
  it('joins Cinder and Nova by attachment id: Nova gives the device and mode, Cinder the state and time', () => {
    const holds = joinHolds({
      cinderAttachments: [record({ status: 'attaching', mode: 'rw' })],
      volumes: [volume()],
      servers: [server()],
      novaAttachments: [novaAttachment()],
      novaListed: ['srv-1'],
      withHosts: true,
    });
    expect(holds).toEqual([
      {
        attachmentId: 'att-1',
        serverId: 'srv-1',
        serverName: 'web-1',
        volumeId: 'vol-1',
        volumeName: 'data',
        device: '/dev/vdb',
        mode: 'ro',
        state: 'attaching',
        host: 'compute-1',
        since: '2026-01-02T00:00:00Z',
        knownToCompute: true,
      },
    ]);
  });

  it('marks a record Nova does not list on its server as not known to compute', () => {
    const [hold] = joinHolds({
      cinderAttachments: [record({ serverId: 'srv-1' })],
      servers: [server({ volumeIds: [] })],
      novaAttachments: [],
      novaListed: ['srv-1'],
      withHosts: false,
    });
    expect(hold?.knownToCompute).toBe(false);
  });

  it("falls back to the server's volume list, and to null for a server the caller cannot see", () => {
    const holds = joinHolds({
      cinderAttachments: [record({ id: 'a', serverId: 'srv-1' }), record({ id: 'b', serverId: 'srv-x' })],
      servers: [server()],
      withHosts: false,
    });
    expect(holds.map((h) => [h.attachmentId, h.knownToCompute, h.host])).toEqual([
      ['a', true, null],
      ['b', null, null],
    ]);
  });

  it('drops ended records, keeps failed ones with their state', () => {
    const holds = joinHolds({
      cinderAttachments: [
        record({ id: 'gone', status: 'detached' }),
        record({ id: 'deleted', status: 'deleted' }),
        record({ id: 'failed', status: 'error_attaching' }),
      ],
      withHosts: false,
    });
    expect(holds.map((h) => [h.attachmentId, h.state])).toEqual([['failed', 'error_attaching']]);
  });

  it("takes a volume's own attached list as attached, read-only when Cinder flags the volume readonly", () => {
    const [hold] = joinHolds({
      volumes: [
        volume({
          readonly: true,
          attachments: [
            {
              attachmentId: null,
              serverId: 'srv-2',
              device: '/dev/vdc',
              hostName: 'compute-2',
              attachedAt: null,
            },
          ],
        }),
      ],
      withHosts: true,
    });
    expect(hold).toMatchObject({
      attachmentId: null,
      serverId: 'srv-2',
      state: 'attached',
      mode: 'ro',
      device: '/dev/vdc',
      host: 'compute-2',
    });
  });

  it('joins a record seen first without an id to the one that names it', () => {
    const holds = joinHolds({
      volumes: [
        volume({
          attachments: [
            { attachmentId: null, serverId: 'srv-1', device: '/dev/vdb', hostName: null, attachedAt: null },
          ],
        }),
      ],
      cinderAttachments: [],
      novaAttachments: [novaAttachment({ mode: 'rw' })],
      withHosts: false,
    });
    expect(holds).toHaveLength(1);
    expect(holds[0]).toMatchObject({ attachmentId: 'att-1', mode: 'rw', knownToCompute: true });
  });
});

describe('holdsOnServer', () => {
  it('keeps one hold per volume Nova lists on the server, preferring an attached record', () => {
    const holds = joinHolds({
      cinderAttachments: [
        record({ id: 'old', status: 'reserved' }),
        record({ id: 'now', status: 'attached' }),
        record({ id: 'other', volumeId: 'vol-9' }),
      ],
      servers: [server()],
      withHosts: false,
    });
    const own = holdsOnServer(holds, server());
    expect(own.map((h) => h.attachmentId)).toEqual(['now']);
  });
});
