import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { SEED_IMAGE_ID } from '../../../src/image/seed.js';
import type { Session, TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { volumeClient } from './volume-api-helpers.js';

/**
 * POST /volumes with an image: Cinder's API layer resolves `imageRef` (an id, the id at the end
 * of a Glance URL, or an exact image name the caller can see) before any volume exists, and its
 * create flow then checks the image fits the volume. The golden tests hold the recorded faults
 * for references that do not exist (captures 410-421, 424); these cover what needs an image.
 */
let tc: TestCloud;
let demo: Session;
let vol: ReturnType<typeof volumeClient>;
const GIB = 1024 ** 3;

const badRequest = (message: string) => ({ badRequest: { code: 400, message } });

async function addImage(fields: Record<string, unknown>): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  await tc.cloud.deps.store.db
    .insertInto('images')
    .values({
      id,
      name: `img-${id.slice(0, 8)}`,
      status: 'active',
      visibility: 'public',
      owner: null,
      size: 1024,
      disk_format: 'qcow2',
      container_format: 'bare',
      min_disk: 0,
      min_ram: 0,
      checksum: null,
      properties: '{}',
      created_at: now,
      updated_at: now,
      ...fields,
    })
    .execute();
  return id;
}

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: demoSession }) => {
  tc = cloud;
  demo = demoSession;
  vol = volumeClient(tc, demo);
});

describe('volume from an image', () => {
  it('by id, by Glance URL, by name or as image_id: created and bootable', async () => {
    for (const ref of [
      { imageRef: SEED_IMAGE_ID },
      { imageRef: `http://glance.example/v2/images/${SEED_IMAGE_ID}` },
      { imageRef: 'cirros-0.6.2-x86_64-disk' },
      { image_id: SEED_IMAGE_ID },
    ]) {
      const id = await vol.createVolume(ref);
      const shown = await vol.show(id);
      expect(shown.status, JSON.stringify(ref)).toBe('available');
      expect(shown.bootable, JSON.stringify(ref)).toBe('true');
    }
  });

  it('an image that does not exist or that the caller cannot see is 400, and no volume is made', async () => {
    const hidden = await addImage({ visibility: 'private', owner: randomUUID() });
    const before = (await vol.call('GET', '/volumes')).body.volumes.length;
    for (const imageRef of [randomUUID(), 'no-such-image', hidden, '']) {
      const res = await vol.call('POST', '/volumes', { body: { volume: { size: 1, imageRef } } });
      expect(res.status, imageRef).toBe(400);
      expect(res.body, imageRef).toEqual(
        badRequest('Invalid image identifier or unable to access requested image.'),
      );
    }
    expect((await vol.call('GET', '/volumes')).body.volumes).toHaveLength(before);
  });

  it('two images of the name asked for are 409', async () => {
    await addImage({ name: 'twin' });
    await addImage({ name: 'twin' });
    const res = await vol.call('POST', '/volumes', { body: { volume: { size: 1, imageRef: 'twin' } } });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      conflictingRequest: {
        code: 409,
        message: "Multiple matches found for 'twin', use an ID to be more specific.",
      },
    });
  });

  it('the image must be active and fit the volume (check_image_metadata)', async () => {
    const queued = await addImage({ status: 'queued' });
    // One byte over 1 GiB: two gigabytes once rounded up (the column is a 32-bit integer on PostgreSQL).
    const big = await addImage({ size: GIB + 1 });
    const needs3 = await addImage({ min_disk: 3 });
    const cases: [Record<string, unknown>, string][] = [
      [{ size: 1, imageRef: queued }, `Invalid input received: Image ${queued} is not active.`],
      [
        { size: 1, imageRef: big },
        'Invalid input received: Size of specified image 2GB is larger than volume size 1GB.',
      ],
      [
        { size: 2, imageRef: needs3 },
        'Invalid input received: Volume size 2GB cannot be smaller than the image minDisk size 3GB.',
      ],
    ];
    for (const [volume, message] of cases) {
      const res = await vol.call('POST', '/volumes', { body: { volume } });
      expect(res.body, message).toEqual(badRequest(message));
    }
    expect(
      (await vol.call('POST', '/volumes', { body: { volume: { size: 3, imageRef: big } } })).status,
    ).toBe(202);
  });

  it('an image and a source volume together are refused', async () => {
    const source = await vol.createVolume();
    const res = await vol.call('POST', '/volumes', {
      body: { volume: { size: 1, imageRef: SEED_IMAGE_ID, source_volid: source } },
    });
    expect(res.body).toEqual(
      badRequest('Invalid input received: May specify only one of backup, imageRef, snapshot, source volume'),
    );
  });
});
