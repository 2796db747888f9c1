import { Router } from 'express';
import { authOf } from '../../platform/http/context.js';
import { notFound } from '../../platform/http/errors.js';
import { versionOf } from '../../platform/http/microversion.js';
import type { ComputeDeps } from '../deps.js';
import { addressesOf } from '../service/server-networks.service.js';
import { getServer, portsOfServers } from '../service/servers.service.js';
import { interfaceView } from '../views/interface.view.js';

/**
 * A server's addresses (`ips.py`, `GET /servers/{id}/ips[/{network}]`) and its ports
 * (`attach_interfaces.py`, `GET /servers/{id}/os-interface[/{port_id}]`), read from the network
 * service. Readers may read them; another project's server is a 404.
 */
export function serverIpsRoutes(deps: ComputeDeps): Router {
  const router = Router();
  const portsOf = async (auth: ReturnType<typeof authOf>, id: string) => {
    const server = await getServer(deps, auth, id);
    return (await portsOfServers(deps, [server.id])).get(server.id) ?? [];
  };

  router.get('/servers/:id/ips', async (req, res) => {
    const ports = await portsOf(authOf(req.ctx), req.params.id);
    res.json({ addresses: addressesOf(ports, false) });
  });

  router.get('/servers/:id/ips/:network', async (req, res) => {
    const addresses = addressesOf(await portsOf(authOf(req.ctx), req.params.id), false);
    const list = Object.hasOwn(addresses, req.params.network) ? addresses[req.params.network] : undefined;
    if (!list) throw notFound('Instance is not a member of specified network');
    res.json({ [req.params.network]: list });
  });

  router.get('/servers/:id/os-interface', async (req, res) => {
    const version = versionOf(req.ctx);
    const ports = await portsOf(authOf(req.ctx), req.params.id);
    res.json({ interfaceAttachments: ports.map((p) => interfaceView(p, version)) });
  });

  router.get('/servers/:id/os-interface/:portId', async (req, res) => {
    const ports = await portsOf(authOf(req.ctx), req.params.id);
    const port = ports.find((p) => p.id === req.params.portId);
    if (!port) {
      throw notFound(`Instance ${req.params.id} does not have a port with id ${req.params.portId}`);
    }
    res.json({ interfaceAttachment: interfaceView(port, versionOf(req.ctx)) });
  });

  return router;
}
