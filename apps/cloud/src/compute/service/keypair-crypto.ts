import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type JsonWebKey,
  randomBytes,
  sign,
  X509Certificate,
} from 'node:crypto';

/**
 * Nova's `nova/crypto.py` for key pairs: an RSA 2048 key made for the user (the private half
 * returned once, the public half in OpenSSH format with the comment `Generated-by-Nova`), the MD5
 * fingerprint of an OpenSSH public key, and the SHA-1 fingerprint of an x509 certificate. A key
 * the fingerprint cannot be computed for is invalid (`failed to generate fingerprint`).
 */

export class InvalidKeyData extends Error {}

const colonHex = (buf: Buffer) => (buf.toString('hex').match(/../g) ?? []).join(':');

/** SSH wire format: a uint32 length, then the bytes. */
function sshString(buf: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(buf.length);
  return Buffer.concat([len, buf]);
}

/** An unsigned big-endian integer as an SSH mpint (a leading zero when the top bit is set). */
function sshMpint(unsigned: Buffer): Buffer {
  let i = 0;
  while (i < unsigned.length - 1 && unsigned[i] === 0) i++;
  const trimmed = unsigned.subarray(i);
  return sshString((trimmed[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed);
}

const b64url = (s: string | undefined) => Buffer.from(s ?? '', 'base64url');

/** Reads the SSH strings of a key blob; throws on a truncated blob. */
function sshFields(blob: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let at = 0;
  while (at < blob.length) {
    if (at + 4 > blob.length) throw new InvalidKeyData();
    const len = blob.readUInt32BE(at);
    at += 4;
    if (at + len > blob.length) throw new InvalidKeyData();
    out.push(blob.subarray(at, at + len));
    at += len;
  }
  return out;
}

const unsignedOf = (mpint: Buffer) => {
  let i = 0;
  while (i < mpint.length - 1 && mpint[i] === 0) i++;
  return mpint.subarray(i);
};

const EC_CURVES: Record<string, { crv: string; size: number }> = {
  nistp256: { crv: 'P-256', size: 32 },
  nistp384: { crv: 'P-384', size: 48 },
  nistp521: { crv: 'P-521', size: 66 },
};

/** What `load_ssh_public_key` accepts, checked by loading the key: throws when it would refuse. */
function checkSshKey(type: string, blob: Buffer): void {
  const fields = sshFields(blob);
  if (fields[0]?.toString('latin1') !== type) throw new InvalidKeyData();
  let jwk: JsonWebKey;
  if (type === 'ssh-rsa' && fields.length === 3) {
    const n = unsignedOf(fields[2]!);
    if (n.length * 8 > 16384 + 8) throw new InvalidKeyData();
    jwk = { kty: 'RSA', e: unsignedOf(fields[1]!).toString('base64url'), n: n.toString('base64url') };
  } else if (type === 'ssh-ed25519' && fields.length === 2 && fields[1]!.length === 32) {
    jwk = { kty: 'OKP', crv: 'Ed25519', x: fields[1]!.toString('base64url') };
  } else if (type.startsWith('ecdsa-sha2-') && fields.length === 3) {
    const curve = EC_CURVES[type.slice('ecdsa-sha2-'.length)];
    const point = fields[2]!;
    if (!curve || fields[1]!.toString('latin1') !== type.slice('ecdsa-sha2-'.length))
      throw new InvalidKeyData();
    if (point[0] !== 4 || point.length !== 1 + 2 * curve.size) throw new InvalidKeyData();
    jwk = {
      kty: 'EC',
      crv: curve.crv,
      x: point.subarray(1, 1 + curve.size).toString('base64url'),
      y: point.subarray(1 + curve.size).toString('base64url'),
    };
  } else if (type === 'ssh-dss' && fields.length === 5) {
    return;
  } else {
    throw new InvalidKeyData();
  }
  try {
    createPublicKey({ key: jwk, format: 'jwk' });
  } catch {
    throw new InvalidKeyData();
  }
}

/** `generate_fingerprint`: the MD5 of an OpenSSH public key's blob, as colon-separated hex. */
export function sshFingerprint(publicKey: string): string {
  const parts = publicKey.trim().split(/\s+/);
  const [type, data] = parts;
  if (!type || !data || !/^[A-Za-z0-9+/]+={0,2}$/.test(data) || data.length % 4 !== 0) {
    throw new InvalidKeyData();
  }
  const blob = Buffer.from(data, 'base64');
  checkSshKey(type, blob);
  return colonHex(createHash('md5').update(blob).digest());
}

/** `generate_x509_fingerprint`: the SHA-1 of a PEM certificate, as lowercase colon-separated hex. */
export function x509Fingerprint(pem: string): string {
  try {
    return new X509Certificate(pem).fingerprint.toLowerCase();
  } catch {
    throw new InvalidKeyData();
  }
}

export interface GeneratedKey {
  privateKey: string;
  publicKey: string;
  fingerprint: string;
}

/** `generate_key_pair`: RSA 2048, the private key in the traditional OpenSSL PEM. */
export function generateSshKey(): GeneratedKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = publicKey.export({ format: 'jwk' });
  const blob = Buffer.concat([
    sshString(Buffer.from('ssh-rsa')),
    sshMpint(b64url(jwk.e)),
    sshMpint(b64url(jwk.n)),
  ]);
  return {
    privateKey: privateKey.export({ format: 'pem', type: 'pkcs1' }).toString(),
    publicKey: `ssh-rsa ${blob.toString('base64')} Generated-by-Nova`,
    fingerprint: colonHex(createHash('md5').update(blob).digest()),
  };
}

// --- A self-signed certificate, for `type: x509` without a public key (`generate_winrm_x509_cert`).

const der = (tag: number, ...content: Buffer[]): Buffer => {
  const body = Buffer.concat(content);
  const n = body.length;
  const len =
    n < 0x80
      ? Buffer.from([n])
      : n < 0x100
        ? Buffer.from([0x81, n])
        : n < 0x10000
          ? Buffer.from([0x82, n >> 8, n & 0xff])
          : Buffer.from([0x83, n >> 16, (n >> 8) & 0xff, n & 0xff]);
  return Buffer.concat([Buffer.from([tag]), len, body]);
};
const seq = (...c: Buffer[]) => der(0x30, ...c);
const oid = (dotted: string): Buffer => {
  const [a, b, ...rest] = dotted.split('.').map(Number) as [number, number, ...number[]];
  const bytes = [a * 40 + b];
  for (const v of rest) {
    const chunk = [v & 0x7f];
    for (let x = v >> 7; x > 0; x >>= 7) chunk.unshift((x & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return der(0x06, Buffer.from(bytes));
};
const utcTime = (d: Date) =>
  der(0x17, Buffer.from(`${d.toISOString().slice(2, 19).replace(/[-:T]/g, '')}Z`, 'latin1'));
const cnName = (cn: string) => seq(der(0x31, seq(oid('2.5.4.3'), der(0x0c, Buffer.from(cn, 'utf8')))));

/** A self-signed RSA 2048 certificate for `CN=<user_id>`, valid ten years (Nova's openssl call). */
export function generateX509Cert(userId: string): GeneratedKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const sha256WithRsa = seq(oid('1.2.840.113549.1.1.11'), der(0x05));
  const serial = randomBytes(8);
  serial[0] = (serial[0] ?? 0) & 0x7f;
  const now = new Date();
  const later = new Date(now.getTime() + 3650 * 86400_000);
  const tbs = seq(
    der(0xa0, der(0x02, Buffer.from([2]))),
    der(0x02, serial),
    sha256WithRsa,
    cnName(userId),
    seq(utcTime(now), utcTime(later)),
    cnName(userId),
    publicKey.export({ format: 'der', type: 'spki' }),
  );
  const signature = sign('sha256', tbs, privateKey);
  const cert = seq(tbs, sha256WithRsa, der(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const pem = `-----BEGIN CERTIFICATE-----\n${(cert.toString('base64').match(/.{1,64}/g) ?? []).join('\n')}\n-----END CERTIFICATE-----\n`;
  const key = createPrivateKey(privateKey.export({ format: 'pem', type: 'pkcs8' }));
  return {
    privateKey: key.export({ format: 'pem', type: 'pkcs8' }).toString(),
    publicKey: pem,
    fingerprint: x509Fingerprint(pem),
  };
}
