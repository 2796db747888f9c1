import { generateKeyPairSync } from 'node:crypto';
import type { CloudClient } from './cloud-client.js';
import { compareVersions } from './microversions.js';
import { queryString } from './paging.js';

/** Nova's os-keypairs, turned into plain objects. */

export interface NovaKeyPair {
  name: string;
  fingerprint: string;
  /** ssh or x509 (2.2); ssh before it. */
  type: string;
}

interface RawKeyPair {
  name: string;
  fingerprint?: string;
  type?: string;
  private_key?: string;
}

/** The last microversion at which Nova makes a key pair itself (2.92 requires a public key). */
const LAST_GENERATING = '2.91';
/** Key types exist from 2.2; before it every pair is ssh. */
const KEY_TYPES = '2.2';

const toKeyPair = (k: RawKeyPair): NovaKeyPair => ({
  name: k.name,
  fingerprint: k.fingerprint ?? '',
  type: k.type ?? 'ssh',
});

/** A version to read and write key pairs at: with types, at most 2.91 (nothing newer is needed). */
const keyPairVersion = (cloud: CloudClient) => cloud.computeVersion(LAST_GENERATING);

/** The user's key pairs, page after page (Nova pages them by name from 2.35). */
export async function listKeyPairs(cloud: CloudClient): Promise<NovaKeyPair[]> {
  const out: NovaKeyPair[] = [];
  let marker: string | undefined;
  for (;;) {
    const res = await cloud.nova<{
      keypairs?: { keypair: RawKeyPair }[];
      keypairs_links?: { rel: string }[];
    }>('GET', `/os-keypairs${queryString({ limit: '1000', marker })}`, {
      microversion: keyPairVersion(cloud),
    });
    const page = (res.body.keypairs ?? []).map((k) => toKeyPair(k.keypair));
    out.push(...page);
    const last = page.at(-1);
    if (!last || !res.body.keypairs_links?.some((l) => l.rel === 'next')) return out;
    marker = last.name;
  }
}

/** One key pair, or null when Nova says 404. */
export async function findKeyPair(cloud: CloudClient, name: string): Promise<NovaKeyPair | null> {
  const res = await cloud.nova<{ keypair?: RawKeyPair }>('GET', `/os-keypairs/${encodeURIComponent(name)}`, {
    microversion: keyPairVersion(cloud),
    allow: [404],
  });
  return res.status === 404 || !res.body.keypair ? null : toKeyPair(res.body.keypair);
}

/** Imports a public key. Nova's refusals (a duplicate name is 409, a bad key 400) pass through. */
export async function importKeyPair(
  cloud: CloudClient,
  name: string,
  publicKey: string,
): Promise<NovaKeyPair> {
  const version = keyPairVersion(cloud);
  const typed = compareVersions(version, KEY_TYPES) >= 0;
  const res = await cloud.nova<{ keypair: RawKeyPair }>('POST', '/os-keypairs', {
    body: { keypair: { name, public_key: publicKey, ...(typed ? { type: 'ssh' } : {}) } },
    microversion: version,
  });
  return toKeyPair(res.body.keypair);
}

/**
 * A new ssh key pair; its private key comes back once and is neither kept nor logged. Nova makes
 * it when the cloud still speaks a microversion at which Nova generates keys (2.91 or older, which
 * every Nova offers as its range starts at 2.1); on a cloud whose range starts after 2.91, the BFF
 * makes the pair itself (RSA 3072, as ssh-keygen would) and imports its public half.
 */
export async function createKeyPair(
  cloud: CloudClient,
  name: string,
): Promise<{ keyPair: NovaKeyPair; privateKey: string }> {
  if (compareVersions(cloud.session.capabilities.compute.minVersion, LAST_GENERATING) <= 0) {
    const version = keyPairVersion(cloud);
    const typed = compareVersions(version, KEY_TYPES) >= 0;
    const res = await cloud.nova<{ keypair: RawKeyPair }>('POST', '/os-keypairs', {
      body: { keypair: { name, ...(typed ? { type: 'ssh' } : {}) } },
      microversion: version,
    });
    return { keyPair: toKeyPair(res.body.keypair), privateKey: res.body.keypair.private_key ?? '' };
  }
  const made = newSshKeyPair();
  return { keyPair: await importKeyPair(cloud, name, made.publicKey), privateKey: made.privateKey };
}

export async function deleteKeyPair(cloud: CloudClient, name: string): Promise<void> {
  await cloud.nova('DELETE', `/os-keypairs/${encodeURIComponent(name)}`, {
    microversion: keyPairVersion(cloud),
  });
}

/** An OpenSSH `string`: its length as 4 bytes, then the bytes. */
function sshString(bytes: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(bytes.length);
  return Buffer.concat([len, bytes]);
}

/** An OpenSSH `mpint` from an unsigned big-endian number: a leading zero when the top bit is set. */
function sshMpint(unsigned: Buffer): Buffer {
  let i = 0;
  while (i < unsigned.length - 1 && unsigned[i] === 0) i++;
  const trimmed = unsigned.subarray(i);
  return sshString((trimmed[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed);
}

/**
 * An RSA key pair: the public key in OpenSSH's one-line format (`ssh-rsa AAAA… comment`) and the
 * private key as PKCS#1 PEM, which ssh reads as it reads the keys Nova generates.
 */
export function newSshKeyPair(comment = 'generated-by-dashboard'): { publicKey: string; privateKey: string } {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 3072 });
  const jwk = publicKey.export({ format: 'jwk' });
  const blob = Buffer.concat([
    sshString(Buffer.from('ssh-rsa')),
    sshMpint(Buffer.from(jwk.e ?? '', 'base64url')),
    sshMpint(Buffer.from(jwk.n ?? '', 'base64url')),
  ]);
  return {
    publicKey: `ssh-rsa ${blob.toString('base64')} ${comment}`,
    privateKey: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
  };
}
