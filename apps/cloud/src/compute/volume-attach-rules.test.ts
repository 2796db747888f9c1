import { describe, expect, it } from 'vitest';
import type { AuthContext } from '../platform/http/context.js';
import { OpenStackError } from '../platform/http/errors.js';
import { ATTACH_MODE_MIN_SERVICE_VERSION } from './hosts.js';
import type { AttachHost } from './store/bdms.store.js';
import type { ServerRow } from './store/servers.store.js';
import {
  ATTACH_STATES,
  assertHostCanAttach,
  assertInstanceState,
  assertShelvedAllowed,
  SWAP_STATES,
  TAGGED_NOT_SUPPORTED,
} from './volume-attach-rules.js';

const SERVER = 'c1f6f1a0-6d0e-4c38-9a3d-6f8e1b6c2a11';
const VOLUME = '5d2f0d0e-1b8a-4a33-8c44-2f3c4b5d6e7f';

const server = (changes: Partial<ServerRow> = {}) =>
  ({
    id: SERVER,
    vm_state: 'active',
    task_state: null,
    launched_at: '2026-01-01T00:00:00.000Z',
    locked: 0,
    ...changes,
  }) as ServerRow;

const caller = (isAdmin: boolean) => ({ isAdmin }) as AuthContext;

const host = (changes: Partial<AttachHost> = {}): AttachHost => ({
  host: 'compute-1',
  serviceVersion: ATTACH_MODE_MIN_SERVICE_VERSION,
  supportsMultiattach: true,
  hypervisorType: 'QEMU',
  hostIp: '192.0.2.11',
  ...changes,
});

/** The status and message a rule throws, or null when it passes. */
function refusal(rule: () => void): [number, string] | null {
  try {
    rule();
    return null;
  } catch (err) {
    if (!(err instanceof OpenStackError)) throw err;
    return [err.status, err.message];
  }
}

describe('assertInstanceState (check_instance_lock, then check_instance_state)', () => {
  it('lets an unlocked, launched server with no task through in every attach state', () => {
    for (const vmState of ATTACH_STATES) {
      expect(
        refusal(() =>
          assertInstanceState(server({ vm_state: vmState }), caller(false), 'attach_volume', ATTACH_STATES),
        ),
      ).toBeNull();
    }
  });

  it('refuses a locked server to members, not to admins', () => {
    const locked = server({ locked: 1 });
    expect(refusal(() => assertInstanceState(locked, caller(false), 'attach_volume', ATTACH_STATES))).toEqual(
      [409, `Instance ${SERVER} is locked`],
    );
    expect(
      refusal(() => assertInstanceState(locked, caller(true), 'attach_volume', ATTACH_STATES)),
    ).toBeNull();
  });

  it("names the attribute at fault in Nova's words: vm_state, task_state, then launched_at", () => {
    expect(
      refusal(() =>
        assertInstanceState(server({ vm_state: 'building' }), caller(true), 'swap_volume', SWAP_STATES),
      ),
    ).toEqual([409, `Cannot 'swap_volume' instance ${SERVER} while it is in vm_state building`]);
    expect(
      refusal(() =>
        assertInstanceState(
          server({ task_state: 'rebooting' }),
          caller(true),
          'attach_volume',
          ATTACH_STATES,
        ),
      ),
    ).toEqual([409, `Cannot 'attach_volume' instance ${SERVER} while it is in task_state rebooting`]);
    expect(
      refusal(() =>
        assertInstanceState(server({ launched_at: null }), caller(true), 'attach_volume', ATTACH_STATES),
      ),
    ).toEqual([409, `Cannot 'attach_volume' instance ${SERVER} while it is in launched_at None`]);
  });

  it('stopped is an attach state but not a swap state', () => {
    const stopped = server({ vm_state: 'stopped' });
    expect(
      refusal(() => assertInstanceState(stopped, caller(true), 'attach_volume', ATTACH_STATES)),
    ).toBeNull();
    expect(refusal(() => assertInstanceState(stopped, caller(true), 'swap_volume', SWAP_STATES))?.[0]).toBe(
      409,
    );
  });
});

describe('assertShelvedAllowed (below 2.20 a shelved server cannot attach or detach)', () => {
  it('refuses shelved and shelved-offloaded servers below 2.20 only', () => {
    for (const vmState of ['shelved', 'shelved_offloaded']) {
      expect(
        refusal(() => assertShelvedAllowed(server({ vm_state: vmState }), 'detach_volume', false)),
      ).toEqual([409, `Cannot 'detach_volume' instance ${SERVER} while it is in vm_state ${vmState}`]);
      expect(
        refusal(() => assertShelvedAllowed(server({ vm_state: vmState }), 'detach_volume', true)),
      ).toBeNull();
    }
    expect(refusal(() => assertShelvedAllowed(server(), 'attach_volume', false))).toBeNull();
  });
});

describe('assertHostCanAttach (reserve_block_device_name on the host, and the spec)', () => {
  const plain = { id: VOLUME, multiattach: false };
  const shared = { id: VOLUME, multiattach: true };

  it('lets rw and ro attaches, shared or not, onto a current host that shares disks', () => {
    expect(refusal(() => assertHostCanAttach(host(), server(), shared, 'ro', null))).toBeNull();
    expect(refusal(() => assertHostCanAttach(host(), server(), plain, 'rw', 'data'))).toBeNull();
  });

  it('a read-only attach onto a host too old for attach modes is the spec 409; rw is fine there', () => {
    const old = host({ serviceVersion: ATTACH_MODE_MIN_SERVICE_VERSION - 1 });
    expect(refusal(() => assertHostCanAttach(old, server(), plain, 'ro', null))).toEqual([
      409,
      `Read-only volume attachment is not yet available on the compute host of instance ${SERVER}.`,
    ]);
    expect(refusal(() => assertHostCanAttach(old, server(), plain, 'rw', null))).toBeNull();
  });

  it("a multiattach volume onto a driver that cannot share disks is Nova's 400", () => {
    const ironic = host({ supportsMultiattach: false, hypervisorType: 'ironic' });
    expect(refusal(() => assertHostCanAttach(ironic, server(), shared, 'rw', null))).toEqual([
      400,
      `Volume ${VOLUME} has 'multiattach' set, which is not supported for this instance.`,
    ]);
    expect(refusal(() => assertHostCanAttach(ironic, server(), plain, 'rw', null))).toBeNull();
  });

  it('a tagged attach onto a driver without device tagging (ironic) is refused', () => {
    const ironic = host({ hypervisorType: 'ironic' });
    expect(refusal(() => assertHostCanAttach(ironic, server(), plain, 'rw', 'data'))).toEqual([
      400,
      TAGGED_NOT_SUPPORTED,
    ]);
  });

  it('checks the attach mode first, then multiattach, then the tag', () => {
    const worst = host({ serviceVersion: 1, supportsMultiattach: false, hypervisorType: 'ironic' });
    expect(refusal(() => assertHostCanAttach(worst, server(), shared, 'ro', 'x'))?.[0]).toBe(409);
    expect(refusal(() => assertHostCanAttach(worst, server(), shared, 'rw', 'x'))?.[0]).toBe(400);
    expect(refusal(() => assertHostCanAttach(worst, server(), shared, 'rw', 'x'))?.[1]).toContain(
      'multiattach',
    );
  });
});
