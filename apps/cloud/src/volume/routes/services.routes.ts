import { Router } from 'express';
import { badRequest, policyForbidden } from '../../platform/http/errors.js';
import { nowIso } from '../../platform/time.js';
import { requestSchema, parseBody, type Schema } from '../schemas/validation.js';
import { BACKEND } from '../service/backend.js';
import type { ServicesService } from '../service/services.service.js';
import { callerFor, param, queryOf, sendEmpty, versionFor } from './route-helpers.js';

/** cinder/api/schemas/services.py. */
const cinderHost: Schema = { type: ['string', 'null'], minLength: 1, maxLength: 255 };
const enableAndDisable: Schema = {
  type: 'object',
  properties: {
    binary: { type: 'string', minLength: 1, maxLength: 255 },
    host: cinderHost,
    cluster: { type: ['string', 'null'] },
    service: { type: 'string', minLength: 1, maxLength: 255 },
  },
  anyOf: [{ required: ['binary'] }, { required: ['service'] }],
  additionalProperties: false,
};
type EnableBody = { binary?: string; host?: string | null; service?: string; disabled_reason?: string };
const enableBody = requestSchema<EnableBody>(enableAndDisable);
const disableLogReasonBody = requestSchema<EnableBody>({
  ...enableAndDisable,
  properties: {
    ...(enableAndDisable.properties as Record<string, Schema>),
    disabled_reason: { type: 'string', minLength: 1, maxLength: 255 },
  },
});
const freezeBody = requestSchema<{ host?: string | null }>({
  type: 'object',
  properties: { cluster: { type: ['string', 'null'] }, host: cinderHost },
  additionalProperties: false,
});

/** /os-services (admins) and /os-availability-zone (anyone with a token). */
export function servicesRoutes(services: ServicesService): Router {
  const router = Router({ mergeParams: true, strict: true });

  router.get('/os-services', async (req, res) => {
    const q = queryOf(req);
    const host = q.get('host');
    const binary = q.get('binary');
    const rows = await services.list(callerFor(req), {
      ...(host !== undefined ? { host } : {}),
      ...(binary !== undefined ? { binary } : {}),
    });
    const mv = versionFor(req);
    // Every emulated service reports in continuously: its heartbeat is now.
    const heartbeat = `${nowIso().slice(0, 19)}.000000`;
    res.json({
      services: rows.map((s) => {
        const out: Record<string, unknown> = {
          binary: s.binary,
          host: s.host,
          zone: s.availability_zone,
          status: s.disabled === 1 ? 'disabled' : 'enabled',
          state: 'up',
          updated_at: heartbeat,
        };
        if (mv.atLeast('3.49') && s.binary === 'cinder-volume') out['backend_state'] = 'up';
        if (mv.atLeast('3.7')) out['cluster'] = null;
        out['disabled_reason'] = s.disabled_reason;
        if (s.binary === 'cinder-volume') {
          out['replication_status'] = 'disabled';
          out['active_backend_id'] = null;
          out['frozen'] = s.frozen === 1;
        }
        return out;
      }),
    });
  });

  router.put('/os-services/:action', async (req, res) => {
    const caller = callerFor(req);
    if (!caller.isAdmin) throw policyForbidden('volume_extension:services:update');
    const action = param(req, 'action');
    const body = req.ctx.body;
    if (action === 'freeze' || action === 'thaw') {
      const b = parseBody(freezeBody, body);
      await services.setFrozen(b.host, action === 'freeze');
      sendEmpty(res, 200, 'json');
      return;
    }
    let b: EnableBody;
    let disabled: boolean;
    if (action === 'enable' || action === 'disable') {
      b = parseBody(enableBody, body);
      disabled = action === 'disable';
    } else if (action === 'disable-log-reason') {
      b = parseBody(disableLogReasonBody, body);
      disabled = true;
    } else {
      throw badRequest('Invalid input received: Unknown action');
    }
    const service = b.service ?? '';
    const binary = b.binary ?? '';
    await services.setDisabled(b.host, binary || service, disabled, b.disabled_reason);
    res.json({
      ...(action === 'disable-log-reason' ? { disabled_reason: b.disabled_reason } : {}),
      disabled,
      host: b.host,
      service,
      binary,
      status: disabled ? 'disabled' : 'enabled',
    });
  });

  router.get('/os-availability-zone', async (_req, res) => {
    const zones = await services.availabilityZones();
    res.json({
      availabilityZoneInfo: (zones.length > 0
        ? zones
        : [{ name: BACKEND.availabilityZone, available: true }]
      ).map((z) => ({ zoneName: z.name, zoneState: { available: z.available } })),
    });
  });

  return router;
}
