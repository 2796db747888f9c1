import { Router } from 'express';
import { z } from 'zod';
import type { ComputeDeps } from '../deps.js';
import { authOf } from '../../platform/http/context.js';
import { badRequest } from '../../platform/http/errors.js';
import {
  buildTopology,
  DEFAULT_STUCK_AFTER_SECONDS,
  type TopologyQuery,
} from '../service/topology.service.js';
import { topologyView } from '../views/topology.view.js';

/** oslo.utils bool_from_string's accepted spellings; an empty value means "given", as in Nova. */
const TRUE_WORDS = ['', '1', 't', 'true', 'on', 'y', 'yes'];
const FALSE_WORDS = ['0', 'f', 'false', 'off', 'n', 'no'];

/** A repeated query parameter counts by its last value, as Nova's filters do. */
const lastValue = (v: unknown) => (Array.isArray(v) ? v.at(-1) : v);
const text = z.preprocess(lastValue, z.string().min(1).max(255).optional());

const querySchema = z.object({
  all_tenants: z.preprocess(
    lastValue,
    z
      .string()
      .transform((s) => s.trim().toLowerCase())
      .refine((s) => TRUE_WORDS.includes(s) || FALSE_WORDS.includes(s), {
        message: `acceptable values are: '${[...TRUE_WORDS.slice(1), ...FALSE_WORDS].sort().join("', '")}'`,
      })
      .transform((s) => TRUE_WORDS.includes(s))
      .optional(),
  ),
  project_id: text,
  host: text,
  server_id: text,
  volume_id: text,
  stuck_after: z.preprocess(
    lastValue,
    z
      .string()
      .regex(/^\d{1,9}$/, { message: 'must be a whole number of seconds' })
      .transform(Number)
      .optional(),
  ),
});

function parseQuery(query: unknown): TopologyQuery {
  const parsed = querySchema.safeParse(query);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? 'query');
    throw badRequest(`Invalid input for query parameters ${name}. ${issue?.message ?? ''}`.trim());
  }
  const q = parsed.data;
  return {
    allTenants: q.all_tenants ?? null,
    projectId: q.project_id ?? null,
    host: q.host ?? null,
    serverId: q.server_id ?? null,
    volumeId: q.volume_id ?? null,
    stuckAfterSeconds: q.stuck_after ?? DEFAULT_STUCK_AFTER_SECONDS,
  };
}

/**
 * GET /os-emulator-topology: our extension (docs/cloud-extensions.md), namespaced so it can
 * never collide with a real Nova resource. Any microversion.
 */
export function topologyRoutes(deps: ComputeDeps): Router {
  const router = Router();
  router.get('/os-emulator-topology', async (req, res) => {
    const topology = await buildTopology(deps, authOf(req.ctx), parseQuery(req.query));
    res.status(200).json(topologyView(topology));
  });
  return router;
}
