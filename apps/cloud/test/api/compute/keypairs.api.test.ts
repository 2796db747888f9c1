import { createHash, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { describe, expect } from 'vitest';
import { SEED_IMAGE_ID } from '../../../src/image/seed.js';
import { http, type Session, type TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';

/** os-keypairs: generated and imported keys, per-user ownership, microversion shapes, key_name on servers. */

let tc: TestCloud;
let demo: Session;
let admin: Session;

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: demoSession, admin: adminSession }) => {
  tc = cloud;
  demo = demoSession;
  admin = adminSession;
});

const nova = (method: string, path: string, version: string, body?: unknown, session: Session = demo) =>
  http(tc, method, `/compute/v2.1${path}`, {
    token: session.token,
    version: `compute ${version}`,
    ...(body !== undefined ? { body } : {}),
  });

/** An OpenSSH public key made here, and its MD5 fingerprint computed independently. */
function sshKey(): { line: string; fingerprint: string } {
  const { publicKey } = generateKeyPairSync('ed25519');
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x ?? '', 'base64url');
  const str = (b: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, b.length]), b]);
  const blob = Buffer.concat([str(Buffer.from('ssh-ed25519')), str(raw)]);
  const md5 = createHash('md5').update(blob).digest('hex');
  return {
    line: `ssh-ed25519 ${blob.toString('base64')} me@host`,
    fingerprint: (md5.match(/../g) ?? []).join(':'),
  };
}

describe('POST /os-keypairs', () => {
  it('generates an RSA key at 2.1 (200, no type) and returns the private key once', async () => {
    const res = await nova('POST', '/os-keypairs', '2.1', { keypair: { name: 'gen-21' } });
    expect(res.status).toBe(200);
    const k = res.body.keypair;
    expect(Object.keys(k).sort()).toEqual(['fingerprint', 'name', 'private_key', 'public_key', 'user_id']);
    expect(k.user_id).toBe(demo.userId);
    expect(k.private_key).toMatch(/^-----BEGIN RSA PRIVATE KEY-----\n/);
    expect(k.public_key).toMatch(/^ssh-rsa AAAA\S+ Generated-by-Nova$/);
    // The public half really is the private key's.
    const pub = createPublicKey(k.private_key).export({ format: 'jwk' });
    const blob = Buffer.from(k.public_key.split(' ')[1], 'base64');
    expect(blob.toString('latin1')).toContain('ssh-rsa');
    expect(blob.subarray(-64).equals(Buffer.from(pub.n ?? '', 'base64url').subarray(-64))).toBe(true);
    const fp = (createHash('md5').update(blob).digest('hex').match(/../g) ?? []).join(':');
    expect(k.fingerprint).toBe(fp);
    const shown = await nova('GET', '/os-keypairs/gen-21', '2.1');
    expect(shown.body.keypair.private_key).toBeUndefined();
    expect(shown.body.keypair.public_key).toBe(k.public_key);
  });

  it('imports a public key at 2.2 (201, type ssh) with its MD5 fingerprint', async () => {
    const key = sshKey();
    const res = await nova('POST', '/os-keypairs', '2.2', {
      keypair: { name: 'imp-22', public_key: key.line },
    });
    expect(res.status).toBe(201);
    expect(res.body.keypair).toEqual({
      name: 'imp-22',
      public_key: key.line,
      fingerprint: key.fingerprint,
      user_id: demo.userId,
      type: 'ssh',
    });
  });

  it('generates and imports x509 certificates', async () => {
    const gen = await nova('POST', '/os-keypairs', '2.2', { keypair: { name: 'x509-gen', type: 'x509' } });
    expect(gen.status).toBe(201);
    expect(gen.body.keypair.type).toBe('x509');
    expect(gen.body.keypair.public_key).toMatch(/^-----BEGIN CERTIFICATE-----\n/);
    expect(gen.body.keypair.fingerprint).toMatch(/^([0-9a-f]{2}:){19}[0-9a-f]{2}$/);
    const imp = await nova('POST', '/os-keypairs', '2.2', {
      keypair: { name: 'x509-imp', type: 'x509', public_key: gen.body.keypair.public_key },
    });
    expect(imp.status).toBe(201);
    expect(imp.body.keypair.fingerprint).toBe(gen.body.keypair.fingerprint);
  });

  it.each([
    ['ssh-rsa badkey'],
    [''],
    [`ssh-rsa ${'A'.repeat(2048)} openstack@ubuntu`],
    ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA== x'],
  ])('refuses the public key %j', async (publicKey) => {
    const res = await nova('POST', '/os-keypairs', '2.2', {
      keypair: { name: 'bad', public_key: publicKey },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      badRequest: { code: 400, message: 'Keypair data is invalid: failed to generate fingerprint' },
    });
  });

  it('refuses a duplicate name with 409', async () => {
    await nova('POST', '/os-keypairs', '2.2', { keypair: { name: 'dup', public_key: sshKey().line } });
    const res = await nova('POST', '/os-keypairs', '2.2', {
      keypair: { name: 'dup', public_key: sshKey().line },
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      conflictingRequest: { code: 409, message: "Key pair 'dup' already exists." },
    });
  });

  it('checks the name: length, and the characters each microversion allows', async () => {
    const short = await nova('POST', '/os-keypairs', '2.2', { keypair: { name: '' } });
    expect(short.body.badRequest.message).toBe(
      "Invalid input for field/attribute name. Value: . '' is too short",
    );
    const long = await nova('POST', '/os-keypairs', '2.2', { keypair: { name: 'k'.repeat(256) } });
    expect(long.body.badRequest.message).toMatch(/is too long$/);
    const at = await nova('POST', '/os-keypairs', '2.91', { keypair: { name: 'me@host.x' } });
    expect(at.body.badRequest.message).toBe(
      "An invalid 'name' value was provided. The name must be: Only expected characters: [_- 0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ]",
    );
    const ok = await nova('POST', '/os-keypairs', '2.92', {
      keypair: { name: 'me@host.x', public_key: sshKey().line },
    });
    expect(ok.status).toBe(201);
  });

  it('needs a public key from 2.92 (no generation)', async () => {
    const res = await nova('POST', '/os-keypairs', '2.92', { keypair: { name: 'nogen' } });
    expect(res.status).toBe(400);
    expect(res.body.badRequest.message).toBe(
      "Invalid input for field/attribute keypair. Value: {'name': 'nogen'}. 'public_key' is a required property",
    );
  });

  it('lets an admin create for another user (2.10), and refuses a member', async () => {
    const mine = await nova(
      'POST',
      '/os-keypairs',
      '2.10',
      { keypair: { name: 'for-demo', public_key: sshKey().line, user_id: demo.userId } },
      admin,
    );
    expect(mine.status).toBe(201);
    expect(mine.body.keypair.user_id).toBe(demo.userId);
    const listed = await nova('GET', '/os-keypairs', '2.10');
    expect(listed.body.keypairs.map((k: { keypair: { name: string } }) => k.keypair.name)).toContain(
      'for-demo',
    );
    const refused = await nova('POST', '/os-keypairs', '2.10', {
      keypair: { name: 'for-admin', public_key: sshKey().line, user_id: admin.userId },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.forbidden.message).toBe(
      "Policy doesn't allow os_compute_api:os-keypairs:create to be performed.",
    );
    // Below 2.10 user_id is not in the schema.
    const old = await nova(
      'POST',
      '/os-keypairs',
      '2.9',
      { keypair: { name: 'x', user_id: demo.userId } },
      admin,
    );
    expect(old.status).toBe(400);
    const shown = await nova('GET', `/os-keypairs/for-demo?user_id=${demo.userId}`, '2.10', undefined, admin);
    expect(shown.status).toBe(200);
    const del = await nova(
      'DELETE',
      `/os-keypairs/for-demo?user_id=${demo.userId}`,
      '2.10',
      undefined,
      admin,
    );
    expect(del.status).toBe(204);
  });
});

describe('GET, DELETE /os-keypairs', () => {
  it('shows the database fields, and 404 with Nova’s message for an unknown name', async () => {
    await nova('POST', '/os-keypairs', '2.2', { keypair: { name: 'show-me', public_key: sshKey().line } });
    const res = await nova('GET', '/os-keypairs/show-me', '2.2');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.keypair).sort()).toEqual(
      [
        'created_at',
        'deleted',
        'deleted_at',
        'fingerprint',
        'id',
        'name',
        'public_key',
        'type',
        'updated_at',
        'user_id',
      ].sort(),
    );
    expect(res.body.keypair.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000000$/);
    expect(typeof res.body.keypair.id).toBe('number');
    const missing = await nova('GET', '/os-keypairs/nope', '2.2');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({
      itemNotFound: { code: 404, message: `Keypair nope not found for user ${demo.userId}` },
    });
  });

  it('keeps each user’s key pairs to themselves', async () => {
    await nova('POST', '/os-keypairs', '2.2', { keypair: { name: 'private', public_key: sshKey().line } });
    const asAdmin = await nova('GET', '/os-keypairs', '2.2', undefined, admin);
    expect(asAdmin.body.keypairs.map((k: { keypair: { name: string } }) => k.keypair.name)).not.toContain(
      'private',
    );
    const other = await nova('GET', `/os-keypairs?user_id=${admin.userId}`, '2.10');
    expect(other.status).toBe(403);
  });

  it('pages by name from 2.35 with keypairs_links', async () => {
    for (const n of ['page-a', 'page-b', 'page-c']) {
      await nova('POST', '/os-keypairs', '2.35', { keypair: { name: n, public_key: sshKey().line } }, admin);
    }
    const first = await nova('GET', '/os-keypairs?limit=2', '2.35', undefined, admin);
    expect(first.body.keypairs.map((k: { keypair: { name: string } }) => k.keypair.name)).toEqual([
      'page-a',
      'page-b',
    ]);
    expect(first.body.keypairs_links[0].href).toMatch(
      /\/compute\/v2\.1\/os-keypairs\?limit=2&marker=page-b$/,
    );
    const next = await nova('GET', '/os-keypairs?limit=2&marker=page-b', '2.35', undefined, admin);
    expect(next.body.keypairs.map((k: { keypair: { name: string } }) => k.keypair.name)).toEqual(['page-c']);
    expect(next.body.keypairs_links).toBeUndefined();
    const bad = await nova('GET', '/os-keypairs?marker=zzz', '2.35', undefined, admin);
    expect(bad.status).toBe(400);
    expect(bad.body.badRequest.message).toBe('Marker zzz could not be found.');
    // Below 2.35 limit is ignored.
    const all = await nova('GET', '/os-keypairs?limit=1', '2.34', undefined, admin);
    expect(all.body.keypairs.length).toBeGreaterThanOrEqual(3);
  });

  it('deletes with 202 at 2.1 and 204 from 2.2, then 404', async () => {
    await nova('POST', '/os-keypairs', '2.2', { keypair: { name: 'del-1', public_key: sshKey().line } });
    await nova('POST', '/os-keypairs', '2.2', { keypair: { name: 'del-2', public_key: sshKey().line } });
    expect((await nova('DELETE', '/os-keypairs/del-1', '2.1')).status).toBe(202);
    expect((await nova('DELETE', '/os-keypairs/del-2', '2.2')).status).toBe(204);
    const again = await nova('DELETE', '/os-keypairs/del-2', '2.2');
    expect(again.status).toBe(404);
  });
});

describe('key_name on POST /servers', () => {
  it('stores and shows the key name; an unknown one is 400', async () => {
    await nova('POST', '/os-keypairs', '2.2', { keypair: { name: 'srv-key', public_key: sshKey().line } });
    const body = (key: string) => ({
      server: { name: 'with-key', flavorRef: '1', imageRef: SEED_IMAGE_ID, networks: 'none', key_name: key },
    });
    const bad = await nova('POST', '/servers', '2.60', body('no-such-key'));
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ badRequest: { code: 400, message: 'Invalid key_name provided.' } });
    const ok = await nova('POST', '/servers', '2.60', body('srv-key'));
    expect(ok.status).toBe(202);
    const shown = await nova('GET', `/servers/${ok.body.server.id}`, '2.60');
    expect(shown.body.server.key_name).toBe('srv-key');
  });
});
