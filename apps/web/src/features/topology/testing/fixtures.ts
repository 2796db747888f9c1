import type { Session, Topology } from '@sv/shared';

/** A small cloud with one of everything the page must show: two writers, a stuck attach, an unplaced server. */
export function smallTopology(): Topology {
  return {
    source: 'extension',
    hostNamesHidden: false,
    hosts: [
      {
        id: 'compute-1',
        name: 'compute-1',
        zone: 'az1',
        serverIds: ['srv-web-1', 'srv-web-2'],
        state: 'up',
        status: 'enabled',
        supportsMultiattach: true,
        supportsAttachModes: true,
      },
      {
        id: 'compute-2',
        name: 'compute-2',
        zone: 'az2',
        serverIds: ['srv-db-1'],
        state: 'up',
        status: 'enabled',
        supportsMultiattach: true,
        supportsAttachModes: false,
      },
    ],
    servers: [
      { id: 'srv-web-1', name: 'web-1', status: 'ACTIVE', hostId: 'compute-1', projectId: 'p-demo' },
      { id: 'srv-web-2', name: 'web-2', status: 'ACTIVE', hostId: 'compute-1', projectId: 'p-demo' },
      { id: 'srv-db-1', name: 'db-1', status: 'ACTIVE', hostId: 'compute-2', projectId: 'p-admin' },
      { id: 'srv-build-1', name: 'build-1', status: 'BUILD', hostId: null, projectId: 'p-demo' },
    ],
    volumes: [
      {
        id: 'vol-shared',
        name: 'shared-data',
        status: 'in-use',
        shared: true,
        projectId: 'p-demo',
        rw: 2,
        ro: 1,
      },
      { id: 'vol-logs', name: 'logs', status: 'in-use', shared: true, projectId: 'p-admin', rw: 0, ro: 1 },
      {
        id: 'vol-scratch',
        name: 'scratch',
        status: 'attaching',
        shared: false,
        projectId: 'p-demo',
        rw: 1,
        ro: 0,
      },
    ],
    edges: [
      {
        serverId: 'srv-web-1',
        volumeId: 'vol-shared',
        mode: 'rw',
        state: 'attached',
        device: '/dev/vdb',
        since: '2026-01-01T10:00:00Z',
        attachmentId: 'a1',
      },
      {
        serverId: 'srv-web-2',
        volumeId: 'vol-shared',
        mode: 'rw',
        state: 'attached',
        device: '/dev/vdb',
        since: '2026-01-01T10:01:00Z',
        attachmentId: 'a2',
      },
      {
        serverId: 'srv-db-1',
        volumeId: 'vol-shared',
        mode: 'ro',
        state: 'attached',
        device: '/dev/vdb',
        since: '2026-01-01T10:02:00Z',
        attachmentId: 'a3',
      },
      {
        serverId: 'srv-db-1',
        volumeId: 'vol-logs',
        mode: 'ro',
        state: 'attached',
        device: '/dev/vdc',
        since: '2026-01-01T10:03:00Z',
        attachmentId: 'a4',
      },
      {
        serverId: 'srv-web-2',
        volumeId: 'vol-scratch',
        mode: 'rw',
        state: 'attaching',
        device: null,
        since: '2026-01-01T09:00:00Z',
        attachmentId: 'a5',
      },
    ],
    risks: [
      {
        kind: 'multiple_writers',
        volumeId: 'vol-shared',
        serverIds: ['srv-web-1', 'srv-web-2'],
        message:
          'Volume shared-data is attached read-write to 2 servers; without a cluster file system or fencing, concurrent writes can corrupt it.',
      },
      {
        kind: 'stuck_attachment',
        volumeId: 'vol-scratch',
        serverIds: ['srv-web-2'],
        message:
          "Attachment of volume vol-scratch to server srv-web-2 has been in state 'attaching' since 2026-01-01T09:00:00Z (over 300 seconds).",
        attachmentId: 'a5',
        state: 'attaching',
        since: '2026-01-01T09:00:00Z',
      },
    ],
    generatedAt: '2026-01-01T10:05:00Z',
  };
}

export function sessionFixture(isAdmin = true): Session {
  return {
    user: { id: 'u1', name: isAdmin ? 'admin' : 'demo' },
    project: isAdmin ? { id: 'p-admin', name: 'admin' } : { id: 'p-demo', name: 'demo' },
    projects: isAdmin
      ? [
          { id: 'p-admin', name: 'admin' },
          { id: 'p-demo', name: 'demo' },
        ]
      : [{ id: 'p-demo', name: 'demo' }],
    roles: isAdmin ? ['admin'] : ['member'],
    isAdmin,
    csrfToken: 'csrf',
    expiresAt: '2026-01-02T00:00:00Z',
    capabilities: {
      compute: { minVersion: '2.1', maxVersion: '2.105' },
      volume: { minVersion: '3.0', maxVersion: '3.71' },
      multiattachEnhancements: true,
      multiattach: true,
      readOnlyAttach: { available: true, reason: null },
      launchStrategy: 'multi-create',
      launchStrategyReason: 'The cloud supports 2.105.',
      topologyExtension: true,
    },
  };
}

/**
 * The cloud the issue was filed against, as the e2e journey seeds it: 60 servers of one project on
 * the bundled cloud's five hosts (three take them all, round robin), four shared volumes. 12 web
 * servers read web-shared and cfg, 10 app servers read cfg and logs, 2 db servers both write
 * db-data (the two-writer risk), and 36 batch servers hold no volume.
 */
export function cloudOf60(): Topology {
  const at = '2026-01-01T10:00:00Z';
  const hosts: Topology['hosts'] = [
    ['compute-1', 'nova'],
    ['compute-2', 'nova'],
    ['compute-old', 'nova'],
    ['compute-3', 'az2'],
    ['ironic-1', 'az2'],
  ].map(([id, zone]) => ({
    id: id as string,
    name: id as string,
    zone: zone as string,
    serverIds: [],
    state: 'up',
    status: 'enabled',
    supportsMultiattach: id !== 'ironic-1',
    supportsAttachModes: id !== 'compute-old',
  }));
  const placed = ['compute-1', 'compute-2', 'compute-3'];
  const volumes: Topology['volumes'] = ['web-shared', 'cfg', 'logs', 'db-data'].map((name) => ({
    id: `vol-${name}`,
    name,
    status: 'in-use',
    shared: true,
    projectId: 'p-demo',
    rw: 0,
    ro: 0,
  }));
  const servers: Topology['servers'] = [];
  const edges: Topology['edges'] = [];
  const groups: [string, number, [string, 'rw' | 'ro'][]][] = [
    [
      'web',
      12,
      [
        ['web-shared', 'ro'],
        ['cfg', 'ro'],
      ],
    ],
    [
      'app',
      10,
      [
        ['cfg', 'ro'],
        ['logs', 'ro'],
      ],
    ],
    ['db', 2, [['db-data', 'rw']]],
    ['batch', 36, []],
  ];
  for (const [group, count, attach] of groups) {
    for (let i = 1; i <= count; i++) {
      const id = `srv-${group}-${i}`;
      const hostId = placed[servers.length % placed.length] ?? null;
      servers.push({ id, name: `${group}-${i}`, status: 'ACTIVE', hostId, projectId: 'p-demo' });
      hosts.find((h) => h.id === hostId)?.serverIds.push(id);
      for (const [name, mode] of attach) {
        const v = volumes.find((x) => x.name === name);
        if (!v) continue;
        v[mode]++;
        edges.push({
          serverId: id,
          volumeId: v.id,
          mode,
          state: 'attached',
          device: '/dev/vdb',
          since: at,
          attachmentId: `att-${edges.length}`,
        });
      }
    }
  }
  return {
    source: 'extension',
    hostNamesHidden: false,
    hosts,
    servers,
    volumes,
    edges,
    risks: [
      {
        kind: 'multiple_writers',
        volumeId: 'vol-db-data',
        serverIds: ['srv-db-1', 'srv-db-2'],
        message: 'Volume db-data is attached read-write to 2 servers.',
      },
    ],
    projects: [{ id: 'p-demo', name: 'demo' }],
    generatedAt: at,
  };
}
