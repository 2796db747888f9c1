import { createHash, randomBytes, randomUUID } from 'node:crypto';

/** Nova/Cinder style resource id: a dashed UUID. */
export const newUuid = (): string => randomUUID();

/** Keystone style id: 32 hex characters. */
export const newHexId = (): string => randomUUID().replaceAll('-', '');

/** Nova's request id format, also used by Cinder and Keystone. */
export const newRequestId = (): string => `req-${randomUUID()}`;

/** Nova reservation ids: `r-` and 8 characters of [0-9a-z]. */
export function newReservationId(): string {
  const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz';
  const bytes = randomBytes(8);
  let out = 'r-';
  for (const b of bytes) out += alphabet[b % alphabet.length];
  return out;
}

export const isUuidLike = (s: string): boolean =>
  /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i.test(s);

/** A uuid derived from a name, so seeded ids agree across processes sharing one database. */
export function stableUuid(name: string): string {
  const h = createHash('sha256').update(`shared-volumes-seed/${name}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
