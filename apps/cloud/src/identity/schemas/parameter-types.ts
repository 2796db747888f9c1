import type { JsonType } from '../../platform/validation/json-schema.js';
import type { Schema } from './validation.js';

/**
 * Keystone's `validation.parameter_types` and helpers, shared by the request schemas of this
 * folder (Zed, the recorded release), key for key: they decide which error a client sees first,
 * and Keystone prints them inside its 400 messages.
 */

/** A schema of one type, as `validation.nullable` expects. */
export type Scalar = Schema & { type: JsonType };

export const boolean: Schema = { type: 'boolean', enum: [true, false] };
export const name: Schema = { type: 'string', minLength: 1, maxLength: 255, pattern: '[\\S]+' };
export const idString: Scalar = { type: 'string', minLength: 1, maxLength: 64, pattern: '^[a-zA-Z0-9-]+$' };
export const description: Scalar = { type: 'string' };

/** `validation.nullable`: adds null to the type (and to the enum, when there is one). */
export function nullable(s: Scalar): Schema {
  // Spreading keeps each key where it was: the order decides which error comes first.
  return { ...s, type: [s.type, 'null'], ...(s.enum ? { enum: [...s.enum, null] } : {}) };
}

/** A resource options registry's schema: every option nullable, nothing else allowed. */
export function optionsSchema(options: Record<string, Scalar>): Schema {
  const properties: Record<string, Schema> = {};
  for (const [k, v] of Object.entries(options)) properties[k] = nullable(v);
  return { type: 'object', properties, additionalProperties: false };
}

export const immutableOptions = optionsSchema({ immutable: { type: 'boolean' } });
