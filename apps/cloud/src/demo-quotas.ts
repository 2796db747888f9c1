import type { CloudDeps } from './deps.js';

/**
 * The demo data's projects (`admin`, `demo`) get room for a dashboard demo and its journeys (a
 * launch of 40, a list of 500 servers): 1,000 servers, volumes and snapshots, unlimited cores,
 * RAM and gigabytes, so what stops a big launch there is capacity, not quota. Every other project
 * (Tempest's, ones an admin creates) has Nova's and Cinder's defaults (10 servers, 10 volumes…).
 * Only where the project has no limit of its own yet: a quota an admin set is kept across restarts.
 * Run by main.ts, not by the tests' clouds, which choose their own quotas.
 */
const DEMO_LIMITS = {
  compute_quotas: { instances: 1000, cores: -1, ram: -1 },
  volume_quotas: { volumes: 1000, gigabytes: -1, snapshots: 1000 },
} as const;

export async function seedDemoQuotas(deps: CloudDeps): Promise<void> {
  const db = deps.store.db;
  const projects = await db
    .selectFrom('projects')
    .select('id')
    .where('name', 'in', ['admin', 'demo'])
    .where('domain_id', '=', 'default')
    .execute();
  for (const { id } of projects) {
    for (const [table, limits] of Object.entries(DEMO_LIMITS) as [
      keyof typeof DEMO_LIMITS,
      Record<string, number>,
    ][]) {
      await db
        .insertInto(table)
        .values(
          Object.entries(limits).map(([resource, hard_limit]) => ({
            project_id: id,
            user_id: '',
            resource,
            hard_limit,
          })),
        )
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
  }
}
