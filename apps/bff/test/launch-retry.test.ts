import { describe, expect, it } from 'vitest';
import { sharedVolumeGate } from '../src/features/launch/launch.run.js';
import { OpenStackFault } from '../src/openstack/fault.js';
import { isVolumeBusy } from '../src/openstack/launch-calls.js';

// The bundled cloud has the fix for bug 1747985 and never shows `attaching` to another request,
// so the refusal a real cloud gives while a shared volume is between states is played here.
const VOL = '6f1b2c4e-0000-4000-8000-000000000001';
const reserved = `Invalid input received: Invalid volume: Volume ${VOL} status must be available or in-use or downloading to reserve, but the current status is reserved. (HTTP 400) (Request-ID: req-1)`;
const attachingOnCreate = `Invalid volume: Invalid input received: Invalid volume: Volume ${VOL} status must be available or in-use or downloading to reserve, but the current status is attaching. (HTTP 400) (Request-ID: req-2)`;
const nova = (message: string, status = 400) =>
  new OpenStackFault('compute', status, message, 'badRequest', null);
const fast = { busyTries: 4 };
const tick = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

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

  it('lets requests go in parallel while the cloud takes them', async () => {
    let reads = 0;
    const send = sharedVolumeGate(fast, async () => {
      reads++;
    });
    let inFlight = 0;
    let most = 0;
    const create = async (n: number) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await tick(5);
      inFlight--;
      return n;
    };
    expect(await Promise.all([1, 2, 3].map((n) => send(() => create(n))))).toEqual([1, 2, 3]);
    expect(most).toBe(3);
    expect(reads).toBe(0);
  });

  it('after a refusal sends one at a time, each once the volume is reservable again', async () => {
    // A Zed-like Cinder: each reserve holds the volume `reserved` for a while; a reserve meanwhile is refused.
    let reservedUntil = 0;
    let refusals = 0;
    let inFlight = 0;
    let mostAfterRefusal = 0;
    const create = async (n: number) => {
      inFlight++;
      if (refusals > 0) mostAfterRefusal = Math.max(mostAfterRefusal, inFlight);
      await tick(2);
      inFlight--;
      if (Date.now() < reservedUntil) {
        refusals++;
        throw nova(reserved);
      }
      reservedUntil = Date.now() + 30;
      return n;
    };
    const retries: number[] = [];
    const send = sharedVolumeGate(fast, async () => {
      while (Date.now() < reservedUntil) await tick(5);
    });
    const made = await Promise.all(
      [1, 2, 3, 4].map((n) =>
        send(
          () => create(n),
          (attempt) => retries.push(attempt),
        ),
      ),
    );
    expect(made).toEqual([1, 2, 3, 4]);
    // The first burst collides once per extra request; after that nothing is refused.
    expect(refusals).toBe(3);
    expect(retries).toEqual([1, 1, 1]);
    expect(mostAfterRefusal).toBe(1);
  });

  it('gives up after a bounded number of tries, and never retries other refusals', async () => {
    let calls = 0;
    const send = sharedVolumeGate(fast, async () => {});
    await expect(
      send(async () => {
        calls++;
        throw nova(reserved);
      }),
    ).rejects.toThrow(/current status is reserved/);
    expect(calls).toBe(4);

    calls = 0;
    await expect(
      sharedVolumeGate(fast, async () => {})(async () => {
        calls++;
        throw nova('Invalid volume: volume x already attached');
      }),
    ).rejects.toThrow(/already attached/);
    expect(calls).toBe(1);
  });
});
