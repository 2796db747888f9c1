import type { ComputeDeps } from '../deps.js';
import type { AuthContext } from '../../platform/http/context.js';
import { attachHostsStore, type BdmRow, bdmsStore } from '../store/bdms.store.js';
import type { ServerRow } from '../store/servers.store.js';
import { ROOT_DEVICE } from '../host/device-names.js';
import { getServerFor } from './volume-attachments.service.js';
import { invalidState } from '../volume-attach-rules.js';

/**
 * The guest definition the emulated hypervisor runs, as Nova's libvirt driver would write it
 * (reference 3): every volume disk gets `<driver ... cache="none"/>`; a multiattach one
 * (connection_info.multiattach) adds `<shareable/>`; access_mode `ro` adds `<readonly/>`.
 * Not a Nova API: an extension so admins can see that attach modes reach the hypervisor.
 */

export interface DomainView {
  serverId: string;
  host: string;
  xml: string;
}

const esc = (s: string) =>
  s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

interface ConnectionInfo {
  access_mode?: unknown;
  multiattach?: unknown;
  data?: { access_mode?: unknown };
}

function parseInfo(text: string | null): ConnectionInfo {
  if (!text) return {};
  try {
    return JSON.parse(text) as ConnectionInfo;
  } catch {
    return {};
  }
}

/** One volume's `<disk>` (LibvirtBaseVolumeDriver.get_config + `_set_cache_mode`). */
export function volumeDiskXml(bdm: BdmRow, hostIp: string): string {
  const info = parseInfo(bdm.connection_info);
  const accessMode = info.data?.access_mode ?? info.access_mode ?? 'rw';
  const target = (bdm.device_name ?? '').replace(/^\/dev\//, '');
  const lines = [
    `    <disk type="block" device="disk">`,
    `      <driver name="qemu" type="raw" cache="none" io="native"/>`,
    `      <source dev="/dev/disk/by-path/ip-${esc(hostIp)}:3260-iscsi-iqn.2010-10.org.openstack:volume-${esc(bdm.volume_id ?? '')}-lun-1"/>`,
    `      <target dev="${esc(target)}" bus="virtio"/>`,
    `      <serial>${esc(bdm.volume_id ?? '')}</serial>`,
  ];
  if (info.multiattach === true) lines.push('      <shareable/>');
  if (accessMode === 'ro') lines.push('      <readonly/>');
  lines.push('    </disk>');
  return lines.join('\n');
}

/** The image-backed root disk, when no volume is the root. */
function localRootXml(server: ServerRow): string {
  return [
    `    <disk type="file" device="disk">`,
    `      <driver name="qemu" type="qcow2" cache="none"/>`,
    `      <source file="/var/lib/nova/instances/${esc(server.id)}/disk"/>`,
    `      <target dev="vda" bus="virtio"/>`,
    `    </disk>`,
  ].join('\n');
}

interface FlavorSnapshot {
  ram?: number;
  vcpus?: number;
}

export function renderDomainXml(server: ServerRow, bdms: readonly BdmRow[], hostIp: string): string {
  let flavor: FlavorSnapshot = {};
  try {
    flavor = JSON.parse(server.flavor) as FlavorSnapshot;
  } catch {
    flavor = {};
  }
  // Only volumes the host has connected are disks of the guest.
  const volumes = bdms
    .filter((b) => b.destination_type === 'volume' && b.volume_id !== null && b.connection_info !== null)
    .sort((a, b) => (a.device_name ?? '').localeCompare(b.device_name ?? ''));
  const hasVolumeRoot = volumes.some((b) => b.boot_index === 0 || b.device_name === ROOT_DEVICE);
  const disks = [
    ...(hasVolumeRoot ? [] : [localRootXml(server)]),
    ...volumes.map((b) => volumeDiskXml(b, hostIp)),
  ];
  return [
    `<domain type="kvm">`,
    `  <uuid>${esc(server.id)}</uuid>`,
    `  <name>instance-${esc(server.id.slice(0, 8))}</name>`,
    `  <memory>${(flavor.ram ?? 512) * 1024}</memory>`,
    `  <vcpu>${flavor.vcpus ?? 1}</vcpu>`,
    `  <metadata>`,
    `    <nova:instance xmlns:nova="http://openstack.org/xmlns/libvirt/nova/1.1">`,
    `      <nova:name>${esc(server.name)}</nova:name>`,
    `    </nova:instance>`,
    `  </metadata>`,
    `  <os>`,
    `    <type machine="q35">hvm</type>`,
    `    <boot dev="hd"/>`,
    `  </os>`,
    `  <devices>`,
    ...disks,
    `  </devices>`,
    `</domain>`,
  ].join('\n');
}

/** The extension's show: only a server running on a host has a domain. */
export async function serverDomain(
  deps: ComputeDeps,
  caller: AuthContext,
  serverId: string,
): Promise<DomainView> {
  const server = await getServerFor(deps, caller, serverId);
  const host = server.host ? await attachHostsStore.byHost(deps.store.db, server.host) : undefined;
  if (!host || server.vm_state === 'shelved_offloaded') {
    throw invalidState('os-emulator-domain-xml', server.id, 'vm_state', server.vm_state);
  }
  const bdms = await bdmsStore.forServer(deps.store.db, server.id);
  return { serverId: server.id, host: host.host, xml: renderDomainXml(server, bdms, host.hostIp) };
}
