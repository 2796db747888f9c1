import { boolean, description, idString, immutableOptions, nullable } from './parameter-types.js';
import { requestSchema, type Schema } from './validation.js';

/** Project create and update (`keystone/resource/schema.py`). */

/** The fields of a project request body this cloud keeps. */
export interface ProjectBody {
  id?: string;
  name?: string;
  description?: string | null;
  domain_id?: string | null;
  parent_id?: string | null;
  enabled?: boolean;
  is_domain?: boolean;
}

const projectName: Schema = { type: 'string', minLength: 1, maxLength: 64, pattern: '[\\S]+' };
const projectTags: Schema = {
  type: 'array',
  items: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[^,/]*$' },
  required: [],
  maxItems: 80,
  uniqueItems: true,
};
const projectProperties: Record<string, Schema> = {
  description: nullable(description),
  domain_id: nullable(idString),
  enabled: boolean,
  is_domain: boolean,
  parent_id: nullable(idString),
  name: projectName,
  tags: projectTags,
  options: immutableOptions,
};

export const projectCreateSchema = requestSchema<ProjectBody>({
  type: 'object',
  properties: projectProperties,
  required: ['name'],
  additionalProperties: true,
});

export const projectUpdateSchema = requestSchema<ProjectBody>({
  type: 'object',
  properties: projectProperties,
  minProperties: 1,
  additionalProperties: true,
});
