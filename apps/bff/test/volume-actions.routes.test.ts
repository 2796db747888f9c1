import { http } from '../../cloud/test/helpers/cloud.js';
import { describe, expect, it, test } from './helpers/fixtures.js';

test.beforeAll(async ({ inv }) => {
  await inv.modernHostsOnly();
});

describe('volume actions', () => {
  it('extends an available volume, and an in-use one (the cloud allows it at 3.42)', async ({
    stack,
    inv,
    member: demo,
  }) => {
    const vol = await inv.volume('demo', 'grow', { size: 1 });
    const res = await demo.post(`/api/volumes/${vol}/extend`, { sizeGb: 3 });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ accepted: true });
    await stack.cloud.settle();
    expect((await demo.get(`/api/volumes/${vol}`)).body).toMatchObject({ sizeGb: 3, status: 'available' });

    const held = await inv.volume('demo', 'grow-held', { size: 1 });
    const server = await inv.server('demo', 'grow-holder');
    await inv.attach('demo', server, held, 'rw');
    const inUse = await demo.post(`/api/volumes/${held}/extend`, { sizeGb: 2 });
    expect(inUse.status).toBe(202);
    await stack.cloud.settle();
    expect((await demo.get(`/api/volumes/${held}`)).body).toMatchObject({ sizeGb: 2, status: 'in-use' });
  });

  it('refuses a size that is not larger, with a message for people, before asking the cloud', async ({
    inv,
    member: demo,
  }) => {
    const vol = await inv.volume('demo', 'same-size', { size: 2 });
    const res = await demo.post(`/api/volumes/${vol}/extend`, { sizeGb: 2 });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'invalid_request',
      message: "The new size must be larger than the volume's 2 GB.",
    });
    const tooBig = await demo.post(`/api/volumes/${vol}/extend`, { sizeGb: 16_385 });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.error.details.fields).toEqual({ sizeGb: 'Size must be between 1 and 16,384 GB' });
  });

  it("passes the cloud's refusal of an extend on with its message (volume in error)", async ({
    stack,
    inv,
    member: demo,
  }) => {
    const vol = await inv.volume('demo', 'broken', { size: 1 });
    const admin = await inv.as('admin');
    const reset = await http(stack.cloud, 'POST', `${admin.volumeBase}/volumes/${vol}/action`, {
      token: admin.token,
      body: { 'os-reset_status': { status: 'error' } },
    });
    expect(reset.status, reset.text).toBe(202);
    const res = await demo.post(`/api/volumes/${vol}/extend`, { sizeGb: 3 });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'volume_action_refused',
      message: `Invalid volume: Volume ${vol} status must be '{'status': 'available'}' to extend, currently error.`,
      details: { service: 'block-storage', status: 400, fault: 'badRequest' },
    });
  });

  it('changes an available volume to the multiattach type and back', async ({ stack, inv, member: demo }) => {
    const vol = await inv.volume('demo', 'retype-me');
    const res = await demo.post(`/api/volumes/${vol}/retype`, { type: 'multiattach' });
    expect(res.status).toBe(202);
    await stack.cloud.settle();
    expect((await demo.get(`/api/volumes/${vol}`)).body).toMatchObject({ type: 'multiattach', shared: true });
    const back = await demo.post(`/api/volumes/${vol}/retype`, {
      type: '__DEFAULT__',
      migrationPolicy: 'on-demand',
    });
    expect(back.status).toBe(202);
    await stack.cloud.settle();
    expect((await demo.get(`/api/volumes/${vol}`)).body).toMatchObject({
      type: '__DEFAULT__',
      shared: false,
    });
  });

  it("refuses a multiattach change of an in-use volume with the cloud's reason", async ({
    inv,
    member: demo,
  }) => {
    const vol = await inv.volume('demo', 'shared-held', { shared: true });
    const server = await inv.server('demo', 'shared-holder');
    await inv.attach('demo', server, vol, 'rw');
    const res = await demo.post(`/api/volumes/${vol}/retype`, { type: '__DEFAULT__' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'volume_action_refused',
      message:
        'Invalid input received: Invalid volume_type passed, retypes affecting multiattach are only allowed on available volumes, the specified volume however currently has a status of: in-use.',
    });
  });

  it('names an unknown type as a mistake in the request', async ({ inv, member: demo }) => {
    const vol = await inv.volume('demo', 'retype-unknown');
    const res = await demo.post(`/api/volumes/${vol}/retype`, { type: 'no-such-type' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('unknown_reference');
    expect(res.body.error.message).toMatch(/no-such-type/);
    const bad = await demo.post(`/api/volumes/${vol}/retype`, { type: '', migrationPolicy: 'always' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.fields).toEqual({
      type: 'Choose a volume type',
      migrationPolicy: 'Choose whether the data may be moved: never or on-demand',
    });
  });

  it('sets and clears bootable', async ({ inv, member: demo }) => {
    const vol = await inv.volume('demo', 'boot-toggle');
    const on = await demo.put(`/api/volumes/${vol}/bootable`, { bootable: true });
    expect(on.status).toBe(200);
    expect((await demo.get(`/api/volumes/${vol}`)).body.bootable).toBe(true);
    expect((await demo.put(`/api/volumes/${vol}/bootable`, { bootable: false })).status).toBe(200);
    expect((await demo.get(`/api/volumes/${vol}`)).body.bootable).toBe(false);
    const bad = await demo.put(`/api/volumes/${vol}/bootable`, { bootable: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_request');
  });

  it("answers 404 for a volume the user's project cannot see", async ({ member: demo }) => {
    const id = '00000000-0000-4000-8000-000000000000';
    for (const [method, path, body] of [
      ['POST', `/api/volumes/${id}/extend`, { sizeGb: 2 }],
      ['POST', `/api/volumes/${id}/retype`, { type: 'multiattach' }],
      ['PUT', `/api/volumes/${id}/bootable`, { bootable: true }],
    ] as const) {
      const res = await demo.request(method, path, body);
      expect(res.status, path).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });
});
