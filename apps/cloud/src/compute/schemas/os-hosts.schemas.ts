import { requestSchema, validateBody } from './validation.js';

/**
 * `PUT /os-hosts/{host}` (`schemas/hosts.py` `update`). Nova's schema puts its `anyOf` inside
 * `properties`, so it names a property instead of requiring one: an empty body passes (capture
 * 986 shows what Tempest's "no parameter" sends: both keys null, refused by their type).
 */
const ENABLE_DISABLE = ['enable', 'disable', 'Enable', 'Disable', 'ENABLE', 'DISABLE'];

interface HostUpdateBody {
  status?: string;
  maintenance_mode?: string;
}

const hostUpdateSchema = requestSchema<HostUpdateBody>({
  type: 'object',
  properties: {
    status: { type: 'string', enum: ENABLE_DISABLE },
    maintenance_mode: { type: 'string', enum: ENABLE_DISABLE },
    // Nova's misplaced `anyOf` (see above): a property of that name, whatever its value.
    anyOf: {},
  },
  additionalProperties: false,
});

export interface HostUpdate {
  /** true: enable; undefined: not asked. */
  enabled?: boolean;
  maintenance?: boolean;
}

export function parseHostUpdate(body: unknown): HostUpdate {
  const b = validateBody(hostUpdateSchema, body);
  const on = (v: string) => v.trim().toLowerCase() === 'enable';
  return {
    ...(b.status !== undefined ? { enabled: on(b.status) } : {}),
    ...(b.maintenance_mode !== undefined ? { maintenance: on(b.maintenance_mode) } : {}),
  };
}
