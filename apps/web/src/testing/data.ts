import {
  type Attachment,
  type Candidate,
  type Capabilities,
  capabilitiesSchema,
  type Preflight,
  preflightSchema,
  type Server,
  type Session,
  type Snapshot,
  serverSchema,
  snapshotSchema,
  sessionSchema,
  type Volume,
  volumeSchema,
} from '@sv/shared';

/** What the BFF sends, built through the shared schemas so a test cannot hold what it never could. */

export function makeCapabilities(over: Partial<Capabilities> = {}): Capabilities {
  return capabilitiesSchema.parse({
    compute: { minVersion: '2.1', maxVersion: '2.105' },
    volume: { minVersion: '3.0', maxVersion: '3.71' },
    multiattachEnhancements: true,
    multiattach: true,
    readOnlyAttach: { available: true, reason: null },
    launchStrategy: 'multi-create',
    launchStrategyReason: 'The cloud supports compute API 2.105.',
    topologyExtension: true,
    ...over,
  });
}

export function makeSession(over: Partial<Session> = {}): Session {
  return sessionSchema.parse({
    user: { id: 'u-demo', name: 'demo' },
    project: { id: 'p-demo', name: 'demo' },
    projects: [{ id: 'p-demo', name: 'demo' }],
    roles: ['member'],
    isAdmin: false,
    csrfToken: 'csrf',
    expiresAt: '2030-01-01T00:00:00Z',
    capabilities: makeCapabilities(),
    ...over,
  });
}

export function makeAttachment(over: Partial<Attachment> = {}): Attachment {
  return volumeSchema.shape.attachments.element.parse({
    attachmentId: 'att-1',
    serverId: 'srv-1',
    serverName: 'web-1',
    volumeId: 'vol-1',
    volumeName: 'data',
    device: '/dev/vdb',
    mode: 'rw',
    state: 'attached',
    host: null,
    since: '2026-01-02T03:04:05Z',
    knownToCompute: true,
    ...over,
  });
}

export function makeVolume(over: Partial<Volume> = {}): Volume {
  return volumeSchema.parse({
    id: 'vol-1',
    name: 'data',
    description: null,
    sizeGb: 10,
    status: 'available',
    type: 'multiattach',
    shared: true,
    bootable: false,
    readonly: false,
    availabilityZone: 'nova',
    projectId: 'p-demo',
    createdAt: '2026-01-01T00:00:00Z',
    attachments: [],
    ...over,
  });
}

export function makeServer(over: Partial<Server> = {}): Server {
  return serverSchema.parse({
    id: 'srv-1',
    name: 'web-1',
    status: 'ACTIVE',
    task: null,
    flavor: { id: 'f1', name: 'm1.small' },
    image: { id: 'img-1', name: 'cirros' },
    availabilityZone: 'nova',
    host: null,
    projectId: 'p-demo',
    fault: null,
    createdAt: '2026-01-01T00:00:00Z',
    attachments: [],
    ...over,
  });
}

export function makeCandidate(over: Partial<Candidate> = {}): Candidate {
  return preflightSchema.shape.candidates.element.parse({
    id: 'vol-1',
    name: 'data',
    status: 'available',
    canAttach: true,
    canAttachReadOnly: true,
    reasons: [],
    readOnlyReasons: [],
    ...over,
  });
}

export function makePreflight(over: Partial<Preflight> = {}): Preflight {
  return preflightSchema.parse({
    subject: { kind: 'server', id: 'srv-1', name: 'web-1' },
    candidates: [],
    ...over,
  });
}

// --- web17: snapshots ---
export function makeSnapshot(over: Partial<Snapshot> = {}): Snapshot {
  return snapshotSchema.parse({
    id: 'snap-1',
    name: 'nightly',
    description: null,
    status: 'available',
    sizeGb: 10,
    volumeId: 'vol-1',
    volumeName: 'data',
    projectId: 'p-demo',
    createdAt: '2026-01-02T00:00:00Z',
    ...over,
  });
}
