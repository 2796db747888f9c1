import { type Request, type Response, Router } from 'express';
import { baseUrl } from '../../platform/http/base-url.js';
import { authOf } from '../../platform/http/context.js';
import { notFoundOf } from '../errors.js';
import { type Caller, callerOf } from '../service/caller.js';
import type { NetworkCtx } from '../service/context.js';
import { listAnswer, pickFields, type View } from '../service/listing.js';
import * as networks from '../service/networks.service.js';
import * as ports from '../service/ports.service.js';
import * as groups from '../service/security-groups.service.js';
import * as subnets from '../service/subnets.service.js';

/** One Neutron resource: its names, and the service functions behind its five calls. */
interface Resource {
  singular: keyof typeof notFoundOf;
  collection: string;
  sortable: readonly string[];
  list(ctx: NetworkCtx, c: Caller): Promise<View[]>;
  show(ctx: NetworkCtx, c: Caller, id: string): Promise<View>;
  create(ctx: NetworkCtx, c: Caller, body: unknown): Promise<View>;
  update(ctx: NetworkCtx, c: Caller, id: string, body: unknown): Promise<View>;
  remove(ctx: NetworkCtx, c: Caller, id: string): Promise<void>;
}

const STD = ['id', 'name', 'project_id', 'tenant_id', 'created_at', 'updated_at', 'revision_number'];

const RESOURCES: Resource[] = [
  {
    singular: 'network',
    collection: 'networks',
    sortable: [...STD, 'admin_state_up', 'mtu', 'status', 'shared'],
    list: networks.listNetworks,
    show: networks.showNetwork,
    create: networks.createNetwork,
    update: networks.updateNetwork,
    remove: networks.deleteNetwork,
  },
  {
    singular: 'subnet',
    collection: 'subnets',
    sortable: [...STD, 'network_id', 'cidr', 'ip_version', 'gateway_ip', 'enable_dhcp'],
    list: subnets.listSubnets,
    show: subnets.showSubnet,
    create: subnets.createSubnet,
    update: subnets.updateSubnet,
    remove: subnets.deleteSubnet,
  },
  {
    singular: 'port',
    collection: 'ports',
    sortable: [...STD, 'network_id', 'mac_address', 'status', 'device_id', 'device_owner', 'admin_state_up'],
    list: ports.listPorts,
    show: ports.showPort,
    create: ports.createPort,
    update: ports.updatePort,
    remove: ports.deletePort,
  },
  {
    singular: 'security_group',
    collection: 'security-groups',
    sortable: STD,
    list: groups.listSecurityGroups,
    show: groups.showSecurityGroup,
    create: groups.createSecurityGroup,
    update: groups.updateSecurityGroup,
    remove: groups.deleteSecurityGroup,
  },
  {
    singular: 'security_group_rule',
    collection: 'security-group-rules',
    sortable: [
      ...STD,
      'security_group_id',
      'direction',
      'ethertype',
      'protocol',
      'port_range_min',
      'port_range_max',
    ],
    list: groups.listSecurityGroupRules,
    show: groups.showSecurityGroupRule,
    create: groups.createSecurityGroupRule,
    update: groups.updateSecurityGroupRule,
    remove: groups.deleteSecurityGroupRule,
  },
];

/** The JSON key of a collection: `security_groups` for the `security-groups` path. */
const keyOf = (r: Resource) => r.collection.replaceAll('-', '_');

/** Neutron answers 204 with no body and no content type. */
const noContent = (res: Response) => {
  res.status(204).end();
};

/** `/v2.0/<collection>` and `/v2.0/<collection>/{id}` for each resource (neutron's base controller). */
export function resourceRoutes(ctx: NetworkCtx): Router {
  const router = Router();
  for (const r of RESOURCES) {
    const base = `/${r.collection}`;
    const caller = (req: Request) => callerOf(authOf(req.ctx));
    router.get(base, async (req, res) => {
      const views = await r.list(ctx, caller(req));
      res.json(
        listAnswer(views, req.query as Record<string, unknown>, {
          collection: keyOf(r),
          collectionUrl: `${baseUrl(req)}/network/v2.0/${r.collection}`,
          sortable: r.sortable,
          markerNotFound: notFoundOf[r.singular],
        }),
      );
    });
    router.post(base, async (req, res) => {
      res.status(201).json({ [r.singular]: await r.create(ctx, caller(req), req.ctx.body) });
    });
    router.get(`${base}/:id`, async (req, res) => {
      const view = await r.show(ctx, caller(req), req.params.id);
      res.json({ [r.singular]: pickFields(view, req.query as Record<string, unknown>) });
    });
    router.put(`${base}/:id`, async (req, res) => {
      res.json({ [r.singular]: await r.update(ctx, caller(req), req.params.id, req.ctx.body) });
    });
    router.delete(`${base}/:id`, async (req, res) => {
      await r.remove(ctx, caller(req), req.params.id);
      noContent(res);
    });
  }
  return router;
}

export const RESOURCE_COLLECTIONS = RESOURCES.map((r) => ({ name: r.singular, collection: r.collection }));
