import { describe, expect } from 'vitest';
import type { TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { fault, volumeClient } from './volume-api-helpers.js';

/** Volume type encryption: admins only, fixed while a volume uses the type. */

let tc: TestCloud;
let d: ReturnType<typeof volumeClient>;
let a: ReturnType<typeof volumeClient>;

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo, admin }) => {
  tc = cloud;
  d = volumeClient(tc, demo);
  a = volumeClient(tc, admin);
});

async function freshType(): Promise<string> {
  const res = await a.call('POST', '/types', {
    body: { volume_type: { name: `enc-${Date.now()}-${Math.random()}` } },
  });
  expect(res.status, res.text).toBe(200);
  return res.body.volume_type.id as string;
}

const LUKS = { provider: 'luks', control_location: 'front-end' };

describe('volume type encryption', () => {
  it('keeps one set of specs per type: create, show, a field, update, delete', async () => {
    const typeId = await freshType();
    expect((await a.call('GET', `/types/${typeId}/encryption`)).body).toEqual({});
    const created = await a.call('POST', `/types/${typeId}/encryption`, {
      body: { encryption: { ...LUKS, key_size: 256 } },
    });
    expect(created.status).toBe(200);
    expect(created.body.encryption).toEqual({
      ...LUKS,
      key_size: 256,
      volume_type_id: typeId,
      encryption_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    const again = await a.call('POST', `/types/${typeId}/encryption`, { body: { encryption: LUKS } });
    expect(again.body).toEqual(fault(400, `Volume type encryption for type ${typeId} already exists.`));
    const updated = await a.call('PUT', `/types/${typeId}/encryption/${typeId}`, {
      body: { encryption: { control_location: 'back-end', cipher: 'aes-xts-plain64' } },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({ encryption: { control_location: 'back-end', cipher: 'aes-xts-plain64' } });
    const shown = await a.call('GET', `/types/${typeId}/encryption`);
    expect(shown.body).toMatchObject({
      provider: 'luks',
      control_location: 'back-end',
      cipher: 'aes-xts-plain64',
      key_size: 256,
      deleted: false,
      deleted_at: null,
      volume_type_id: typeId,
    });
    expect(shown.body.updated_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/);
    expect((await a.call('GET', `/types/${typeId}/encryption/cipher`)).body).toEqual({
      cipher: 'aes-xts-plain64',
    });
    const noKey = await a.call('GET', `/types/${typeId}/encryption/nosuch`);
    expect(noKey.body).toEqual(fault(404, 'The resource could not be found.'));
    const deleted = await a.call('DELETE', `/types/${typeId}/encryption/${typeId}`);
    expect(deleted.status).toBe(202);
    expect((await a.call('GET', `/types/${typeId}/encryption`)).body).toEqual({});
    const gone = await a.call('DELETE', `/types/${typeId}/encryption/${typeId}`);
    expect(gone.body).toEqual(fault(404, `Volume type encryption for type ${typeId} does not exist.`));
  });

  it('refuses members by policy before looking at the type, and checks the body', async () => {
    const typeId = await freshType();
    for (const [method, path, rule] of [
      ['GET', `/types/${typeId}/encryption`, 'get'],
      ['GET', '/types/nosuch/encryption/provider', 'get'],
      ['POST', `/types/${typeId}/encryption`, 'create'],
      ['PUT', `/types/${typeId}/encryption/${typeId}`, 'update'],
      ['DELETE', `/types/${typeId}/encryption/${typeId}`, 'delete'],
    ] as const) {
      const res = await d.call(method, path, method === 'GET' ? {} : { body: { encryption: LUKS } });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body).toEqual(
        fault(403, `Policy doesn't allow volume_extension:volume_type_encryption:${rule} to be performed.`),
      );
    }
    const missing = await a.call('POST', '/types/nosuch/encryption', { body: { encryption: LUKS } });
    expect(missing.body).toEqual(fault(404, 'Volume type nosuch could not be found.'));
    const noProvider = await a.call('POST', `/types/${typeId}/encryption`, {
      body: { encryption: { control_location: 'front-end' } },
    });
    expect(noProvider.body).toEqual(
      fault(
        400,
        "Invalid input for field/attribute encryption. Value: {'control_location': 'front-end'}. 'provider' is a required property",
      ),
    );
    const extra = await a.call('POST', `/types/${typeId}/encryption`, {
      body: { encryption: { ...LUKS, x: 1 } },
    });
    expect(extra.status).toBe(400);
    const keyAsText = await a.call('POST', `/types/${typeId}/encryption`, {
      body: { encryption: { ...LUKS, key_size: '128' } },
    });
    expect(keyAsText.status).toBe(200);
    expect((await a.call('GET', `/types/${typeId}/encryption/key_size`)).body).toEqual({ key_size: 128 });
  });

  it('cannot change while a volume uses the type', async () => {
    const typeId = await freshType();
    await d.createVolume({ volume_type: typeId });
    const create = await a.call('POST', `/types/${typeId}/encryption`, { body: { encryption: LUKS } });
    expect(create.body).toEqual(fault(400, 'Cannot create encryption specs. Volume type in use.'));
  });
});
