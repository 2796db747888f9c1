import type { Request } from 'express';

/** The address the client used, so catalogs and links point back the way it came. */
export function baseUrl(req: Request): string {
  return `${req.protocol}://${req.get('host') ?? '127.0.0.1'}`;
}
