import type { HostList } from '@sv/shared';
import { cloudFor } from '../../openstack/cloud-client.js';
import { listComputeHosts } from '../../openstack/nova.js';
import { forbidden } from '../../platform/errors.js';
import type { SessionData } from '../../platform/session-store.js';

/** Compute hosts and what they can attach: an operator's view, so admins only. */
export function hostsService() {
  return {
    async list(session: SessionData): Promise<HostList> {
      if (!session.isAdmin) throw forbidden('Only administrators can see compute hosts.');
      const hosts = await listComputeHosts(cloudFor(session));
      return {
        source: hosts[0]?.source ?? 'standard',
        hosts: hosts.map((h) => ({
          name: h.host,
          zone: h.zone,
          state: h.state,
          status: h.status,
          disabledReason: h.disabledReason,
          hypervisorType: h.hypervisorType,
          version: h.serviceVersion,
          supportsMultiattach: h.supportsMultiattach,
          supportsAttachModes: h.supportsAttachModes,
          schedulable: h.schedulable,
        })),
      };
    },
  };
}
