import {
  apiPaths,
  availabilityZoneListSchema,
  flavorListSchema,
  imageListSchema,
  keyPairListSchema,
  type Launch,
  type LaunchPlan,
  launchPlanSchema,
  launchSchema,
  type NetworkChoices,
  networkChoicesSchema,
  type QuotaUsageList,
  quotaUsageListSchema,
  securityGroupChoicesSchema,
  type Session,
  sessionSchema,
  type Volume,
  volumeListSchema,
  volumeSchema,
} from '@sv/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Routes, useLocation } from 'react-router';
import { bff } from '../../../testing/bff';

/** Objects the BFF would send, built through the shared schemas so they cannot drift. */
export function session(
  readOnly: { available: boolean; reason: string | null } = { available: true, reason: null },
): Session {
  return sessionSchema.parse({
    user: { id: 'u1', name: 'demo' },
    project: { id: 'p1', name: 'demo' },
    projects: [{ id: 'p1', name: 'demo' }],
    roles: ['member'],
    isAdmin: false,
    csrfToken: 'csrf',
    expiresAt: '2030-01-01T00:00:00Z',
    capabilities: {
      compute: { minVersion: '2.1', maxVersion: readOnly.available ? '2.105' : '2.104' },
      volume: { minVersion: '3.0', maxVersion: '3.71' },
      multiattachEnhancements: readOnly.available,
      multiattach: true,
      readOnlyAttach: readOnly,
      launchStrategy: readOnly.available ? 'multi-create' : 'serial',
      launchStrategyReason: readOnly.available
        ? 'One request creates every server on the shared volume (compute 2.105).'
        : "This cloud's compute API stops at 2.104, so servers are created one by one and the shared volume attached to each in turn.",
      topologyExtension: true,
    },
  });
}

export function volume(over: Partial<Volume> & { id: string }): Volume {
  return volumeSchema.parse({
    name: over.id,
    description: null,
    sizeGb: 10,
    status: 'available',
    type: over.shared ? 'multiattach' : '__DEFAULT__',
    shared: false,
    bootable: false,
    readonly: false,
    availabilityZone: 'nova',
    projectId: 'p1',
    createdAt: '2026-01-01T00:00:00Z',
    attachments: [],
    ...over,
  });
}

export const volumes: Volume[] = [
  volume({ id: 'v-shared-boot', name: 'golden-root', shared: true, bootable: true }),
  volume({ id: 'v-plain-boot', name: 'my-root', bootable: true }),
  volume({
    id: 'v-shared-data',
    name: 'dataset',
    shared: true,
    status: 'in-use',
    attachments: [
      {
        attachmentId: 'a1',
        serverId: 's-old',
        serverName: 'writer-0',
        volumeId: 'v-shared-data',
        volumeName: 'dataset',
        device: '/dev/vdb',
        mode: 'rw',
        state: 'attached',
        host: null,
        since: '2026-01-01T00:00:00Z',
        knownToCompute: true,
      },
    ],
  }),
  volume({ id: 'v-plain-data', name: 'scratch' }),
];

export function plan(over: Partial<LaunchPlan> = {}): LaunchPlan {
  return launchPlanSchema.parse({
    strategy: 'multi-create',
    strategyReason: 'One request creates every server on the shared volume (compute 2.105).',
    requests: [
      'POST /servers at compute 2.105 (min_count=max_count=3, return_reservation_id): image img-1, data volume v-shared-data (ro)',
      'GET /servers/detail?reservation_id=… until all 3 servers are ACTIVE or ERROR',
    ],
    problems: [],
    ok: true,
    ...over,
  });
}

export function launch(over: Partial<Launch> = {}): Launch {
  return launchSchema.parse({
    id: 'L1',
    strategy: 'multi-create',
    status: 'running',
    request: { name: 'web', count: 3, flavorId: '1', boot: { source: 'image', imageId: 'img-1' } },
    reservationId: 'r-1',
    servers: [],
    startedAt: '2026-01-01T00:00:00Z',
    finishedAt: null,
    summary: '',
    ...over,
  });
}

/** The project's one network, as the BFF lists it (with a second, external one it should not pick). */
export const networkChoices = (over: Partial<NetworkChoices> = {}): NetworkChoices =>
  networkChoicesSchema.parse({
    networkService: true,
    noneAllowed: true,
    networks: [
      {
        id: 'net-private',
        name: 'private',
        status: 'ACTIVE',
        shared: false,
        external: false,
        projectId: null,
        subnets: [
          { id: 'sn-4', name: 'private-v4', cidr: '10.0.0.0/26', ipVersion: 4, gatewayIp: '10.0.0.1' },
          { id: 'sn-6', name: 'private-v6', cidr: 'fd00:10::/64', ipVersion: 6, gatewayIp: null },
        ],
      },
      {
        id: 'net-public',
        name: 'public',
        status: 'ACTIVE',
        shared: true,
        external: true,
        projectId: 'admin-project',
        subnets: [{ id: 'sn-pub', name: 'public-v4', cidr: '172.24.4.0/24', ipVersion: 4, gatewayIp: null }],
      },
    ],
    ...over,
  });

/** Half the project's instances used, the rest with room; volumes unlimited. */
export const quotaUsage = (over: Partial<QuotaUsageList> = {}): QuotaUsageList =>
  quotaUsageListSchema.parse({
    quotas: [
      { resource: 'instances', label: 'Instances', service: 'compute', used: 5, limit: 10 },
      { resource: 'cores', label: 'vCPUs', service: 'compute', used: 5, limit: 20 },
      { resource: 'ram', label: 'RAM (MiB)', service: 'compute', used: 2560, limit: 51_200 },
      { resource: 'volumes', label: 'Volumes', service: 'volume', used: 4, limit: null },
      { resource: 'gigabytes', label: 'Volume storage (GiB)', service: 'volume', used: 40, limit: 1000 },
    ],
    unavailable: [],
    ...over,
  });

/** What a launch picks from beyond the catalog: networks, security groups, key pairs, quotas. */
export const choiceHandlers = ({
  networks = networkChoices(),
  quotas = quotaUsage(),
  keyPairs = [{ name: 'demo-key', fingerprint: 'aa:bb', type: 'ssh' }],
}: {
  networks?: NetworkChoices;
  quotas?: QuotaUsageList;
  keyPairs?: { name: string; fingerprint: string; type: string }[];
} = {}) => [
  bff.get(apiPaths.networks, networkChoicesSchema, networks),
  bff.get(apiPaths.securityGroups, securityGroupChoicesSchema, {
    networkService: networks.networkService,
    securityGroups: networks.networkService
      ? [
          { id: 'sg-default', name: 'default', description: 'Default security group', ruleCount: 4 },
          { id: 'sg-web', name: 'web', description: 'HTTP and HTTPS in', ruleCount: 2 },
        ]
      : [],
  }),
  bff.get(apiPaths.keyPairs, keyPairListSchema, { keyPairs }),
  bff.get(apiPaths.quotas, quotaUsageListSchema, quotas),
];

/** The catalog every wizard test starts from, as the BFF answers it. */
export const catalogHandlers = (
  vols: Volume[] = volumes,
  images = [{ id: 'img-1', name: 'cirros', status: 'active', sizeBytes: 21_430_272 }],
) => [
  ...choiceHandlers(),
  bff.get(apiPaths.flavors, flavorListSchema, {
    flavors: [
      { id: '1', name: 'm1.tiny', vcpus: 1, ramMb: 512, diskGb: 1 },
      { id: '2', name: 'm1.small', vcpus: 1, ramMb: 2048, diskGb: 20 },
    ],
  }),
  bff.get(apiPaths.images, imageListSchema, { images }),
  bff.get(apiPaths.availabilityZones, availabilityZoneListSchema, {
    zones: [
      { name: 'nova', available: true },
      { name: 'zone-b', available: true },
    ],
  }),
  bff.get(apiPaths.volumes, volumeListSchema, { volumes: vols }),
];

function LocationProbe() {
  const location = useLocation();
  return <span data-testid="location">{location.pathname}</span>;
}

/** Renders routes with a fresh cache, starting at `path`. */
export function renderAt(path: string, routes: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>{routes}</Routes>
        <LocationProbe />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}
