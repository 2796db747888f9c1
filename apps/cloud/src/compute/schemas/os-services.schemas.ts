import { badRequest } from '../../platform/http/errors.js';
import type { Microversion } from '../../platform/http/microversion.js';
import { isUuidLike } from '../../platform/ids.js';
import { BOOLEAN_ENUM_NO_LETTERS } from '../../platform/validation/parameter-types.js';
import {
  type JsonSchema,
  lastParam,
  type Query,
  type RequestSchema,
  rejectUnknownParams,
  requestSchema,
  validateBody,
} from './validation.js';

/**
 * os-services' requests (`schemas/services.py`): the list query (closed from 2.75), the 2.53
 * update by uuid and the older update by host and binary (+ forced_down from 2.11).
 */

const serviceString: JsonSchema = { type: 'string', minLength: 1, maxLength: 255 };
const serviceBoolean: JsonSchema = { type: ['boolean', 'string'], enum: BOOLEAN_ENUM_NO_LETTERS };

export interface ServiceListQuery {
  host: string | undefined;
  binary: string | undefined;
}

export function parseServiceListQuery(query: Query, version: Microversion): ServiceListQuery {
  if (version.atLeast('2.75')) rejectUnknownParams(query, ['host', 'binary']);
  return { host: lastParam(query, 'host'), binary: lastParam(query, 'binary') };
}

/** The 2.53 body. */
export interface ServiceUpdateV253 {
  status?: 'enabled' | 'disabled';
  disabled_reason?: string;
  forced_down?: boolean | string;
}

/** `service_update_v2_53`. */
const updateSchemaV253 = requestSchema<ServiceUpdateV253>({
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['enabled', 'disabled'] },
    disabled_reason: serviceString,
    forced_down: serviceBoolean,
  },
  additionalProperties: false,
});

export const parseServiceUpdateV253 = (body: unknown): ServiceUpdateV253 =>
  validateBody(updateSchemaV253, body);

/** From 2.53 a service is named by its uuid (checked after the body). */
export function parseServiceUuid(id: string): string {
  if (!isUuidLike(id)) throw badRequest(`Invalid uuid ${id}`);
  return id;
}

/** The body below 2.53. */
export interface ServiceUpdateLegacy {
  host: string;
  binary: string;
  disabled_reason?: string;
  forced_down?: boolean | string;
}

/** `service_update` (2.0) and `service_update_v211` (+ forced_down). */
const legacyUpdateSchema = (withForce: boolean): RequestSchema<ServiceUpdateLegacy> =>
  requestSchema({
    type: 'object',
    properties: {
      host: serviceString,
      binary: serviceString,
      disabled_reason: serviceString,
      ...(withForce ? { forced_down: serviceBoolean } : {}),
    },
    required: ['host', 'binary'],
    additionalProperties: false,
  });
const legacyUpdateSchemas = [legacyUpdateSchema(false), legacyUpdateSchema(true)] as const;

export const parseServiceUpdateLegacy = (body: unknown, version: Microversion): ServiceUpdateLegacy =>
  validateBody(legacyUpdateSchemas[version.atLeast('2.11') ? 1 : 0], body);
