import type { CloudClient } from './cloud-client.js';
import { COMPUTE } from './microversions.js';

/**
 * How many servers of a flavor the cloud can place now. Only the bundled cloud answers this in
 * advance: its scheduler dry-run extension (POST /os-scheduler-dry-run at 2.105), which runs the
 * scheduler's filters without claiming anything. A real Nova answers 404 there.
 */

export interface DryRunInput {
  flavorId: string;
  count: number;
  availabilityZone?: string;
  volumeBacked: boolean;
  multiattach: boolean;
  readOnly: boolean;
}

export interface DryRunAnswer {
  requested: number;
  fits: number;
  zones: { zone: string; fits: number }[];
}

interface RawDryRun {
  dry_run?: { requested?: number; fits?: number; zones?: { zone_name?: string; fits?: number }[] };
}

/** The dry run's answer, or null when the cloud does not offer it (below 2.105, or Nova's 404/403/400). */
export async function schedulerDryRun(cloud: CloudClient, input: DryRunInput): Promise<DryRunAnswer | null> {
  if (!cloud.computeHas(COMPUTE.enhancements)) return null;
  const res = await cloud.nova<RawDryRun>('POST', '/os-scheduler-dry-run', {
    body: {
      dry_run: {
        flavorRef: input.flavorId,
        count: input.count,
        ...(input.availabilityZone ? { availability_zone: input.availabilityZone } : {}),
        volume_backed: input.volumeBacked,
        multiattach: input.multiattach,
        read_only: input.readOnly,
      },
    },
    microversion: COMPUTE.enhancements,
    allow: [400, 403, 404, 405],
  });
  const d = res.status === 200 ? res.body?.dry_run : undefined;
  if (!d || typeof d.fits !== 'number') return null;
  return {
    requested: d.requested ?? input.count,
    fits: d.fits,
    zones: (d.zones ?? []).map((z) => ({ zone: z.zone_name ?? '', fits: z.fits ?? 0 })),
  };
}

// --- A real cloud, asked by an admin: placement's figures, else the hypervisors' -----------------

/** What one server of the flavor takes. */
export interface ServerSize {
  vcpus: number;
  ramMb: number;
  /** 0 for a server that boots from a volume (Nova claims no local disk for it). */
  diskGb: number;
}

/** Room on one host: what it offers (after overcommit and reserved) and what is used. */
export interface HostRoom {
  zone: string;
  vcpus: { capacity: number; used: number };
  ramMb: { capacity: number; used: number };
  diskGb: { capacity: number; used: number };
}

/** How many servers of `size` fit on each host and in all, per zone (zones by name). */
export function countFits(size: ServerSize, hosts: HostRoom[]): DryRunAnswer & { requested: 0 } {
  const zones = new Map<string, number>();
  let fits = 0;
  for (const h of hosts) {
    const room = (r: { capacity: number; used: number }, need: number) =>
      need <= 0 ? Number.POSITIVE_INFINITY : Math.floor(Math.max(0, r.capacity - r.used) / need);
    const n = Math.min(room(h.vcpus, size.vcpus), room(h.ramMb, size.ramMb), room(h.diskGb, size.diskGb));
    const here = Number.isFinite(n) ? n : 0;
    fits += here;
    zones.set(h.zone, (zones.get(h.zone) ?? 0) + here);
  }
  return {
    requested: 0,
    fits,
    zones: [...zones].sort(([a], [b]) => a.localeCompare(b)).map(([zone, n]) => ({ zone, fits: n })),
  };
}

interface RawHypervisorFigures {
  hypervisor_hostname: string;
  state?: string;
  status?: string;
  vcpus?: number;
  vcpus_used?: number;
  memory_mb?: number;
  memory_mb_used?: number;
  local_gb?: number;
  local_gb_used?: number;
  service?: { host?: string };
}

interface RawProviderSummary {
  resources?: Record<string, { capacity?: number; used?: number }>;
}

/** The last microversion at which os-hypervisors reports usage figures. */
const HYPERVISOR_FIGURES = '2.87';

/**
 * An admin's count on a cloud without the dry run: placement's allocation candidates for one
 * server of the size (capacity there is after allocation ratios and reserved), or, without a
 * placement endpoint, the hypervisors' own figures (no overcommit counted). Zones come from
 * os-services (host → zone) and os-hypervisors (hypervisor name → host). One round of calls.
 */
export async function adminCapacity(
  cloud: CloudClient,
  size: ServerSize,
): Promise<{ source: 'placement' | 'hypervisors'; answer: DryRunAnswer }> {
  const version = cloud.computeVersion(HYPERVISOR_FIGURES);
  const usePlacement = Boolean(cloud.session.endpoints.placement);
  const resources = [
    `VCPU:${size.vcpus}`,
    `MEMORY_MB:${size.ramMb}`,
    ...(size.diskGb > 0 ? [`DISK_GB:${size.diskGb}`] : []),
  ].join(',');
  const [services, hypervisors, candidates, providers] = await Promise.all([
    cloud.nova<{ services?: { host: string; zone?: string; status?: string; state?: string }[] }>(
      'GET',
      '/os-services?binary=nova-compute',
    ),
    cloud.nova<{ hypervisors?: RawHypervisorFigures[] }>('GET', '/os-hypervisors/detail', {
      microversion: version,
    }),
    usePlacement
      ? cloud.placement<{ provider_summaries?: Record<string, RawProviderSummary> }>(
          'GET',
          `/allocation_candidates?resources=${resources}`,
          { microversion: '1.10' },
        )
      : Promise.resolve(null),
    // Provider summaries are keyed by uuid; a compute node's provider is named after its hypervisor.
    usePlacement
      ? cloud.placement<{ resource_providers?: { uuid: string; name: string }[] }>(
          'GET',
          '/resource_providers',
          {
            microversion: '1.10',
          },
        )
      : Promise.resolve(null),
  ]);
  const zoneOfHost = new Map((services.body.services ?? []).map((s) => [s.host, s.zone ?? 'nova']));
  const up = new Set(
    (services.body.services ?? [])
      .filter((s) => s.status === 'enabled' && s.state === 'up')
      .map((s) => s.host),
  );
  const hypers = hypervisors.body.hypervisors ?? [];
  const zoneOfHypervisor = (name: string) => {
    const host = hypers.find((h) => h.hypervisor_hostname === name)?.service?.host;
    return host ? (zoneOfHost.get(host) ?? 'nova') : 'nova';
  };
  if (candidates) {
    const nameOf = new Map((providers?.body.resource_providers ?? []).map((p) => [p.uuid, p.name]));
    const rooms: HostRoom[] = Object.entries(candidates.body.provider_summaries ?? {}).map(([uuid, p]) => {
      const r = (k: string) => ({
        capacity: p.resources?.[k]?.capacity ?? 0,
        used: p.resources?.[k]?.used ?? 0,
      });
      return {
        zone: zoneOfHypervisor(nameOf.get(uuid) ?? ''),
        vcpus: r('VCPU'),
        ramMb: r('MEMORY_MB'),
        diskGb: r('DISK_GB'),
      };
    });
    return { source: 'placement', answer: countFits(size, rooms) };
  }
  const rooms: HostRoom[] = hypers
    .filter((h) => h.service?.host && up.has(h.service.host) && h.state !== 'down' && h.status !== 'disabled')
    .map((h) => ({
      zone: zoneOfHypervisor(h.hypervisor_hostname),
      vcpus: { capacity: h.vcpus ?? 0, used: h.vcpus_used ?? 0 },
      ramMb: { capacity: h.memory_mb ?? 0, used: h.memory_mb_used ?? 0 },
      diskGb: { capacity: h.local_gb ?? 0, used: h.local_gb_used ?? 0 },
    }));
  return { source: 'hypervisors', answer: countFits(size, rooms) };
}
