import type { Microversion } from '../../platform/http/microversion.js';
import { type JsonSchema, type RequestSchema, requestSchema } from './validation.js';

/**
 * POST /os-server-external-events (`schemas/server_external_events.py`): the event names a
 * microversion knows (2.51 volume-extended, 2.76 power-update, 2.82 accelerator-request-bound,
 * 2.93 volume-reimaged; captures 734, 735).
 */

export interface ExternalEventInput {
  name: string;
  server_uuid: string;
  status?: string;
  tag?: string;
}

function eventNames(v: Microversion): string[] {
  const names = ['network-changed', 'network-vif-plugged', 'network-vif-unplugged', 'network-vif-deleted'];
  if (v.atLeast('2.51')) names.push('volume-extended');
  if (v.atLeast('2.76')) names.push('power-update');
  if (v.atLeast('2.82')) names.push('accelerator-request-bound');
  if (v.atLeast('2.93')) names.push('volume-reimaged');
  return names;
}

export function externalEventsSchema(v: Microversion): RequestSchema<{ events: ExternalEventInput[] }> {
  const event: JsonSchema = {
    type: 'object',
    properties: {
      server_uuid: { type: 'string', format: 'uuid' },
      name: { type: 'string', enum: eventNames(v) },
      status: { type: 'string', enum: ['failed', 'completed', 'in-progress'] },
      tag: { type: 'string', maxLength: 255 },
    },
    required: ['server_uuid', 'name'],
    additionalProperties: false,
  };
  return requestSchema({
    type: 'object',
    properties: { events: { type: 'array', minItems: 1, items: event } },
    required: ['events'],
    additionalProperties: false,
  });
}
