import type { Pool } from '../service/pools.service.js';

/** views/scheduler_stats.py: names only, or names with capabilities when `detail`. */
export function poolsView(pools: Pool[], detail: boolean) {
  return {
    pools: pools.map((p) => (detail ? { name: p.name, capabilities: p.capabilities } : { name: p.name })),
  };
}
