import type { Microversion } from '../../platform/http/microversion.js';
import type { DevicePort } from '../clients/network-client.js';

/** `attach_interfaces.py` `_translate_interface_attachment_view`; `tag` from 2.70. */
export function interfaceView(p: DevicePort, version: Microversion) {
  return {
    net_id: p.networkId,
    port_id: p.id,
    mac_addr: p.macAddress,
    port_state: p.status,
    fixed_ips: p.fixedIps.map((ip) => ({ subnet_id: ip.subnetId, ip_address: ip.ipAddress })),
    ...(version.atLeast('2.70') ? { tag: null } : {}),
  };
}
