/**
 * Service versions of the emulated nova-compute hosts. Real Nova gates features on the
 * minimum service version; here a host below ATTACH_MODE_MIN_SERVICE_VERSION predates the
 * enhancement (2.105) and cannot honour an attach mode, so a read-only attach to it is a 409.
 */
export const CURRENT_SERVICE_VERSION = 70;
export const ATTACH_MODE_MIN_SERVICE_VERSION = 70;
export const OLD_SERVICE_VERSION = 66;

export interface SeedHost {
  host: string;
  zone: string;
  hypervisorType: string;
  version: number;
  supportsMultiattach: boolean;
  vcpus: number;
  memoryMb: number;
  localGb: number;
  hostIp: string;
}

/**
 * Five hosts in two zones, chosen so every rule can be seen: `compute-old` is too old for
 * attach modes, and `ironic-1` (a baremetal driver) cannot share disks.
 */
export const SEED_HOSTS: SeedHost[] = [
  {
    host: 'compute-1',
    zone: 'nova',
    hypervisorType: 'QEMU',
    version: CURRENT_SERVICE_VERSION,
    supportsMultiattach: true,
    vcpus: 64,
    memoryMb: 262_144,
    localGb: 2_000,
    hostIp: '10.0.0.11',
  },
  {
    host: 'compute-2',
    zone: 'nova',
    hypervisorType: 'QEMU',
    version: CURRENT_SERVICE_VERSION,
    supportsMultiattach: true,
    vcpus: 64,
    memoryMb: 262_144,
    localGb: 2_000,
    hostIp: '10.0.0.12',
  },
  {
    host: 'compute-old',
    zone: 'nova',
    hypervisorType: 'QEMU',
    version: OLD_SERVICE_VERSION,
    supportsMultiattach: true,
    vcpus: 32,
    memoryMb: 131_072,
    localGb: 1_000,
    hostIp: '10.0.0.13',
  },
  {
    host: 'compute-3',
    zone: 'az2',
    hypervisorType: 'QEMU',
    version: CURRENT_SERVICE_VERSION,
    supportsMultiattach: true,
    vcpus: 64,
    memoryMb: 262_144,
    localGb: 2_000,
    hostIp: '10.0.1.11',
  },
  {
    host: 'ironic-1',
    zone: 'az2',
    hypervisorType: 'ironic',
    version: CURRENT_SERVICE_VERSION,
    supportsMultiattach: false,
    vcpus: 32,
    memoryMb: 131_072,
    localGb: 1_000,
    hostIp: '10.0.1.21',
  },
];

/** The control-plane services listed by os-services in the `internal` zone. */
export const CONTROLLER_HOST = 'controller';
