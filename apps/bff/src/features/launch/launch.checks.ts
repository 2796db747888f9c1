import type { LaunchCapacity, LaunchPlan, LaunchQuotaCheck, LaunchRequest } from '@sv/shared';
import type { DryRunAnswer } from '../../openstack/capacity.js';
import type { LimitUse } from '../../openstack/limits.js';
import type { Network, SecurityGroup, Subnet } from '../../openstack/neutron.js';

/**
 * The plan's checks of what a launch plugs into and uses up: networks, security groups, the key
 * pair, quotas and capacity. Pure rules over what the cloud answered; launch.service.ts asks.
 */

type Problem = LaunchPlan['problems'][number];
type Warning = LaunchPlan['warnings'][number];

export interface NetworkFacts {
  /** The catalog has a network service. */
  service: boolean;
  /** The compute API takes `auto` and `none` (2.37). */
  noneAllowed: boolean;
  projectId: string;
  isAdmin: boolean;
  networks: { network: Network; subnets: Subnet[] }[];
}

const netLabel = (n: Network) => (n.name ? `Network ${n.name}` : `Network ${n.id}`);

/** The networks the request names (or Nova would pick for it) exist, are up and can give addresses. */
export function networkProblems(request: LaunchRequest, facts: NetworkFacts): Problem[] {
  const problems: Problem[] = [];
  const chosen = request.networks;
  if (chosen === 'none') {
    if (!facts.noneAllowed) {
      problems.push({
        field: 'networks',
        message:
          "This cloud's compute API is older than 2.37 and cannot launch servers without a network; choose a network.",
      });
    }
    return problems;
  }
  if (!facts.service) {
    if (chosen !== undefined || facts.noneAllowed) {
      problems.push({
        field: 'networks',
        message: 'This cloud has no network service, so the servers can only launch without a network.',
      });
    }
    return problems;
  }
  if (chosen === undefined) {
    // Nova's own pick (auto): the project's networks, else the shared ones; exactly one must remain.
    const own = facts.networks.filter((n) => n.network.projectId === facts.projectId && !n.network.shared);
    const candidates = own.length > 0 ? own : facts.networks.filter((n) => n.network.shared);
    if (candidates.length > 1) {
      problems.push({
        field: 'networks',
        message: `Several networks could take the servers (${candidates
          .map((n) => n.network.name || n.network.id)
          .sort((a, b) => a.localeCompare(b))
          .join(', ')}); choose which.`,
      });
    } else if (candidates.length === 0) {
      if (facts.noneAllowed) {
        problems.push({
          field: 'networks',
          message: 'This project has no network for the servers; launch them without a network.',
        });
      }
    } else problems.push(...usable('networks', candidates[0]!, facts));
    return problems;
  }
  chosen.forEach((id, i) => {
    const found = facts.networks.find((n) => n.network.id === id);
    if (!found) {
      problems.push({ field: `networks.${i}`, message: `Network ${id} was not found in this project.` });
      return;
    }
    problems.push(...usable(`networks.${i}`, found, facts));
  });
  if (new Set(chosen).size !== chosen.length) {
    problems.push({
      field: 'networks',
      message: 'A network is chosen twice; each server would get two ports on it.',
    });
  }
  return problems;
}

function usable(field: string, n: { network: Network; subnets: Subnet[] }, facts: NetworkFacts): Problem[] {
  const out: Problem[] = [];
  const label = netLabel(n.network);
  if (n.subnets.length === 0) {
    out.push({ field, message: `${label} has no subnet, so it cannot give the servers addresses.` });
  }
  if (n.network.status !== 'ACTIVE') {
    out.push({ field, message: `${label} is ${n.network.status}, not ACTIVE.` });
  }
  // Nova refuses a member a port on an external network that is not shared (ExternalNetworkAttachForbidden).
  if (n.network.external && !n.network.shared && !facts.isAdmin) {
    out.push({ field, message: `${label} is external; only an administrator may plug servers into it.` });
  }
  return out;
}

/** Each group, by name or id, is one of the project's; a name two groups share is ambiguous (Nova's 409). */
export function securityGroupProblems(
  request: LaunchRequest,
  service: boolean,
  groups: SecurityGroup[],
): Problem[] {
  const wanted = request.securityGroups ?? [];
  if (wanted.length === 0 || request.networks === 'none') return [];
  if (!service) {
    return [
      {
        field: 'securityGroups',
        message: 'This cloud has no network service, so it has no security groups.',
      },
    ];
  }
  return wanted.flatMap((g, i): Problem[] => {
    if (groups.some((s) => s.id === g)) return [];
    const named = groups.filter((s) => s.name === g);
    if (named.length === 1) return [];
    if (named.length > 1) {
      return [
        {
          field: `securityGroups.${i}`,
          message: `Multiple security groups found matching '${g}'. Use an ID to be more specific.`,
        },
      ];
    }
    return [{ field: `securityGroups.${i}`, message: `Security group ${g} not found.` }];
  });
}

/** What a server of the flavor takes of each compute quota. */
export interface FlavorSize {
  vcpus: number;
  ramMb: number;
}

const QUOTA_WORDS = {
  instances: { label: 'Instances', unit: (n: number) => `${n} instance${n === 1 ? '' : 's'}` },
  cores: { label: 'vCPUs', unit: (n: number) => `${n} vCPU${n === 1 ? '' : 's'}` },
  ram: { label: 'RAM (MiB)', unit: (n: number) => `${n} MiB of RAM` },
} as const;

/** The compute quotas the launch uses, what is left, problems naming each that does not fit, and the count that would. */
export function quotaChecks(
  count: number,
  flavor: FlavorSize | null,
  limits: { instances: LimitUse; cores: LimitUse; ram: LimitUse },
): { quotas: LaunchQuotaCheck[]; problems: Problem[]; maxCount: number | null } {
  const per = { instances: 1, cores: flavor?.vcpus ?? 0, ram: flavor?.ramMb ?? 0 };
  const quotas: LaunchQuotaCheck[] = [];
  const problems: Problem[] = [];
  let maxCount: number | null = null;
  for (const resource of ['instances', 'cores', 'ram'] as const) {
    if (!flavor && resource !== 'instances') continue;
    const use = limits[resource];
    const need = count * per[resource];
    const left = use.limit === null ? null : Math.max(0, use.limit - use.used);
    quotas.push({ resource, label: QUOTA_WORDS[resource].label, need, left });
    if (left === null || need <= left) continue;
    const unit = QUOTA_WORDS[resource].unit;
    problems.push({
      field: 'count',
      message: `This launch needs ${unit(need)}; the project has ${left} left of ${use.limit}.`,
    });
    if (per[resource] > 0) {
      const fit = Math.floor(left / per[resource]);
      maxCount = maxCount === null ? fit : Math.min(maxCount, fit);
    }
  }
  return { quotas, problems, maxCount };
}

/** Where a capacity count came from, with the count. */
export interface CapacityFound {
  source: 'dry-run' | 'placement' | 'hypervisors';
  answer: DryRunAnswer;
}

const SOURCE_WORDS: Record<CapacityFound['source'], string> = {
  'dry-run': "The cloud's scheduler",
  placement: "Placement's figures for the cloud's hosts (after overcommit and reserved room) say it",
  hypervisors: "The hypervisors' own figures (which leave out overcommit) say the cloud",
};

/**
 * The capacity answer in the plan's words: a problem when fewer than asked fit, or a warning when
 * it could not be counted (a member on a real cloud may not read host figures).
 */
export function capacityCheck(
  count: number,
  found: CapacityFound | null,
  zone: string | undefined,
): { capacity: LaunchCapacity; problems: Problem[]; warnings: Warning[]; fits: number | null } {
  if (!found) {
    const note =
      'This cloud does not let the dashboard count its free room in advance; its scheduler decides when the servers are created, and any that do not fit end in ERROR ("No valid host").';
    return {
      capacity: { source: 'unchecked', requested: count, fits: null, zones: [], note },
      problems: [],
      warnings: [{ field: 'count', message: note }],
      fits: null,
    };
  }
  const { answer, source } = found;
  const zones = zone ? answer.zones.filter((z) => z.zone === zone) : answer.zones;
  const fits = zone ? zones.reduce((n, z) => n + z.fits, 0) : answer.fits;
  const perZone = zones.map((z) => `${z.zone}: ${z.fits}`).join(', ');
  const where = zone ? ` in zone ${zone}` : '';
  const inZones = perZone ? ` (${perZone})` : '';
  const note =
    fits >= count
      ? `${SOURCE_WORDS[source]} can place all ${count} servers${where} now.`
      : `${SOURCE_WORDS[source]} can place ${fits} of the ${count} servers${where} now${inZones}.`;
  const problems: Problem[] =
    fits >= count
      ? []
      : [
          {
            field: 'count',
            message:
              fits === 0
                ? `None of the ${count} servers fits on the cloud's hosts${where} now${inZones}.`
                : `Only ${fits} of the ${count} servers fit on the cloud's hosts${where} now${inZones}. Launch ${fits}, or fewer.`,
          },
        ];
  return {
    capacity: { source, requested: count, fits, zones, note },
    problems,
    warnings: [],
    fits,
  };
}
