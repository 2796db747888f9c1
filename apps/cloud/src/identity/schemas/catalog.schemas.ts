import { requestSchema, type Schema } from './validation.js';

/** Keystone's catalog requests (`keystone/catalog/schema.py`), worded in its errors as Keystone dumps them. */

const nullableBoolean: Schema = { type: 'boolean', enum: [true, false, null] };
const name: Schema = { type: 'string', minLength: 1, maxLength: 255, pattern: '[\\S]+' };

export interface RegionBody {
  id?: string;
  description?: string | null;
  parent_region_id?: string | null;
}

const regionProperties: Record<string, Schema> = {
  description: { type: ['string', 'null'] },
  id: { type: 'string' },
  parent_region_id: { type: ['string', 'null'] },
};

export const regionCreateSchema = requestSchema<RegionBody>({
  type: 'object',
  properties: regionProperties,
  additionalProperties: true,
});

export const regionUpdateSchema = requestSchema<RegionBody>({
  type: 'object',
  properties: regionProperties,
  minProperties: 1,
  additionalProperties: true,
});

export interface ServiceBody {
  id?: string;
  type?: string;
  name?: string;
  description?: unknown;
  enabled?: boolean | null;
}

const serviceProperties: Record<string, Schema> = {
  enabled: nullableBoolean,
  name,
  type: { type: 'string', minLength: 1, maxLength: 255 },
};

export const serviceCreateSchema = requestSchema<ServiceBody>({
  type: 'object',
  properties: serviceProperties,
  required: ['type'],
  additionalProperties: true,
});

export const serviceUpdateSchema = requestSchema<ServiceBody>({
  type: 'object',
  properties: serviceProperties,
  minProperties: 1,
  additionalProperties: true,
});

export interface EndpointBody {
  id?: string;
  enabled?: boolean | null;
  interface?: 'admin' | 'internal' | 'public';
  region_id?: string;
  region?: string;
  service_id?: string;
  url?: string;
}

const endpointProperties: Record<string, Schema> = {
  enabled: nullableBoolean,
  interface: { type: 'string', enum: ['admin', 'internal', 'public'] },
  region_id: { type: 'string' },
  region: { type: 'string' },
  service_id: { type: 'string' },
  url: { type: 'string', minLength: 0, maxLength: 225, pattern: '^[a-zA-Z0-9+.-]+:.+' },
};

export const endpointCreateSchema = requestSchema<EndpointBody>({
  type: 'object',
  properties: endpointProperties,
  required: ['service_id', 'interface', 'url'],
  additionalProperties: true,
});

export const endpointUpdateSchema = requestSchema<EndpointBody>({
  type: 'object',
  properties: endpointProperties,
  minProperties: 1,
  additionalProperties: true,
});
