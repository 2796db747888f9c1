import type { Microversion } from '../../platform/http/microversion.js';
import { isJsonObject, requestSchema, validateBody } from './validation.js';

/**
 * The server actions `server-rescue.service.ts` runs: `rescue`, `unrescue` (`schemas/rescue.py`)
 * and `migrate` (`schemas/migrate_server.py`, a host from 2.56). Parsed here, before the lifecycle
 * actions' parser, so the action dispatcher only hands them on.
 */

export type RescueAction =
  | { name: 'rescue'; adminPass: string | null; rescueImageRef: string | null }
  | { name: 'unrescue' }
  | { name: 'migrate'; host: string | null };

const rescueSchema = requestSchema<{ rescue: { adminPass?: string; rescue_image_ref?: string } | null }>({
  type: 'object',
  properties: {
    rescue: {
      type: ['object', 'null'],
      properties: {
        adminPass: { type: 'string' },
        rescue_image_ref: { type: 'string', format: 'uuid' },
      },
      additionalProperties: false,
    },
  },
  required: ['rescue'],
  additionalProperties: false,
});

/** From 2.56 the body may name a host; before, Nova has no schema and ignores the body. */
const migrateSchema = requestSchema<{ migrate: { host?: string | null } | null }>({
  type: 'object',
  properties: {
    migrate: {
      type: ['object', 'null'],
      properties: { host: { type: ['string', 'null'], minLength: 1, maxLength: 255 } },
      additionalProperties: false,
    },
  },
  required: ['migrate'],
  additionalProperties: false,
});

/** The action when the body's one key is one of ours, else null (the lifecycle parser's turn). */
export function parseRescueAction(body: unknown, v: Microversion): RescueAction | null {
  if (!isJsonObject(body) || Object.keys(body).length !== 1) return null;
  if ('rescue' in body) {
    const { rescue } = validateBody(rescueSchema, body);
    return {
      name: 'rescue',
      adminPass: rescue?.adminPass ?? null,
      rescueImageRef: rescue?.rescue_image_ref ?? null,
    };
  }
  // Nova's unrescue has no schema: any value of the key is taken.
  if ('unrescue' in body) return { name: 'unrescue' };
  if ('migrate' in body) {
    if (v.below('2.56')) return { name: 'migrate', host: null };
    const { migrate } = validateBody(migrateSchema, body);
    return { name: 'migrate', host: migrate?.host ?? null };
  }
  return null;
}
