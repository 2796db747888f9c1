import { describe, expect, it } from 'vitest';
import { withBusyRetry } from '../src/features/launch/launch.run.js';
import { OpenStackFault } from '../src/openstack/fault.js';
import { isVolumeBusy } from '../src/openstack/launch-calls.js';

// The bundled cloud has the fix for bug 1747985 and never shows `attaching` to another request,
// so the refusal a real cloud gives while a shared volume is between states is played here.
const VOL = '6f1b2c4e-0000-4000-8000-000000000001';
const reserved = `Invalid input received: Invalid volume: Volume ${VOL} status must be available or in-use or downloading to reserve, but the current status is reserved. (HTTP 400) (Request-ID: req-1)`;
const attachingOnCreate = `Invalid volume: Invalid input received: Invalid volume: Volume ${VOL} status must be available or in-use or downloading to reserve, but the current status is attaching. (HTTP 400) (Request-ID: req-2)`;
const nova = (message: string, status = 400) =>
  new OpenStackFault('compute', status, message, 'badRequest', null);
const fast = { busyTries: 4, busyBaseMs: 1, busyMaxMs: 4 };

describe('a volume busy between states', () => {
  it("is recognised in Nova's wording of Cinder's refusal, on attach and on create", () => {
    expect(isVolumeBusy(nova(reserved))).toBe(true);
    expect(isVolumeBusy(nova(attachingOnCreate))).toBe(true);
    expect(isVolumeBusy(nova(`Invalid volume: volume ${VOL} is already attached to instances: x`))).toBe(
      false,
    );
    expect(isVolumeBusy(nova(`Volume ${VOL} could not be found.`, 404))).toBe(false);
    expect(isVolumeBusy(new Error(reserved))).toBe(false);
  });

  it('is tried again with backoff until the volume settles', async () => {
    let calls = 0;
    const retries: number[] = [];
    const result = await withBusyRetry(
      fast,
      async () => {
        calls++;
        if (calls < 3) throw nova(calls === 1 ? reserved : attachingOnCreate);
        return 'created';
      },
      (attempt) => retries.push(attempt),
    );
    expect(result).toBe('created');
    expect(calls).toBe(3);
    expect(retries).toEqual([1, 2]);
  });

  it('gives up after a bounded number of tries, and never retries other refusals', async () => {
    let calls = 0;
    await expect(
      withBusyRetry(fast, async () => {
        calls++;
        throw nova(reserved);
      }),
    ).rejects.toThrow(/current status is reserved/);
    expect(calls).toBe(4);

    calls = 0;
    await expect(
      withBusyRetry(fast, async () => {
        calls++;
        throw nova('Invalid volume: volume x already attached');
      }),
    ).rejects.toThrow(/already attached/);
    expect(calls).toBe(1);
  });
});
