import {
  type Launch,
  type LaunchPlan,
  launchPlanSchema,
  launchSchema,
  type Session,
  sessionSchema,
  type Volume,
  volumeSchema,
} from '@sv/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Routes, useLocation } from 'react-router';
import { vi } from 'vitest';

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

type Reply = { status?: number; body: unknown } | ((body: unknown) => { status?: number; body: unknown });

/**
 * Replaces fetch with canned BFF answers keyed by "METHOD /path"; records every call.
 * Anything unexpected answers 404 with the BFF's error shape.
 */
export function mockBff(routes: Record<string, Reply>) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = typeof input === 'string' ? input : input instanceof URL ? input.pathname : input.url;
    const method = init?.method ?? 'GET';
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, path, body });
    const route = routes[`${method} ${path}`];
    const reply = typeof route === 'function' ? route(body) : route;
    if (!reply) {
      return new Response(
        JSON.stringify({ error: { code: 'not_found', message: `No route ${method} ${path}` } }),
        {
          status: 404,
        },
      );
    }
    return new Response(JSON.stringify(reply.body), {
      status: reply.status ?? 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

/** The catalog every wizard test starts from. */
export const catalogRoutes = (vols: Volume[] = volumes): Record<string, Reply> => ({
  'GET /api/flavors': {
    body: {
      flavors: [
        { id: '1', name: 'm1.tiny', vcpus: 1, ramMb: 512, diskGb: 1 },
        { id: '2', name: 'm1.small', vcpus: 1, ramMb: 2048, diskGb: 20 },
      ],
    },
  },
  'GET /api/images': {
    body: { images: [{ id: 'img-1', name: 'cirros', status: 'active', sizeBytes: 21_430_272 }] },
  },
  'GET /api/availability-zones': {
    body: {
      zones: [
        { name: 'nova', available: true },
        { name: 'zone-b', available: true },
      ],
    },
  },
  'GET /api/volumes': { body: { volumes: vols } },
});

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
