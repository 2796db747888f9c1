import { boolean } from './parameter-types.js';
import { requestSchema, type Schema } from './validation.js';

/** `POST /v3/auth/tokens` (`keystone/auth/schema.py`): the `auth` object. */

/** The request body after Keystone's schema check (the parts this cloud reads). */
export interface Ref {
  id?: string;
  name?: string;
  domain?: { id?: string; name?: string };
}
export interface AuthRequest {
  identity: {
    methods: string[];
    password?: { user?: Ref & { password?: string } };
    token?: { id: string };
    [method: string]: unknown;
  };
  scope?: string | { project?: Ref; domain?: Ref; system?: unknown; 'OS-TRUST:trust'?: unknown };
}

const domainRef: Schema = {
  type: 'object',
  properties: { id: { type: 'string' }, name: { type: 'string' } },
};

export const tokenIssueSchema = requestSchema<AuthRequest>({
  type: 'object',
  properties: {
    identity: {
      type: 'object',
      properties: {
        methods: { type: 'array', items: { type: 'string' } },
        password: {
          type: 'object',
          properties: {
            user: {
              type: 'object',
              properties: {
                id: { type: 'string' },
                name: { type: 'string' },
                password: { type: 'string' },
                domain: domainRef,
              },
            },
          },
        },
        token: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      },
      required: ['methods'],
    },
    scope: {
      type: ['object', 'string'],
      properties: {
        project: {
          type: 'object',
          properties: { name: { type: 'string' }, id: { type: 'string' }, domain: domainRef },
        },
        domain: domainRef,
        'OS-TRUST:trust': { type: 'object', properties: { id: { type: 'string' } } },
        system: { type: 'object', properties: { all: boolean } },
      },
    },
  },
  required: ['identity'],
});
