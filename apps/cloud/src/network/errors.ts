import { type ErrorRequestHandler, Router } from 'express';
import { OpenStackError } from '../platform/http/errors.js';
import { toOpenStackError } from '../platform/http/faults.js';

/** webob's exception names, which Neutron reports as the `type` of errors it did not name itself. */
const HTTP_TYPES: Record<number, string> = {
  400: 'HTTPBadRequest',
  403: 'HTTPForbidden',
  404: 'HTTPNotFound',
  405: 'HTTPMethodNotAllowed',
  409: 'HTTPConflict',
  413: 'HTTPRequestEntityTooLarge',
  415: 'HTTPUnsupportedMediaType',
  503: 'HTTPServiceUnavailable',
};

/**
 * Neutron's fault body (`neutron/api/v2/resource.py`, `api/faults.py`):
 * `{"NeutronError": {"type": "NetworkNotFound", "message": "...", "detail": ""}}`.
 */
export function neutronError(status: number, type: string, message: string, detail = ''): OpenStackError {
  return new OpenStackError(status, message, { rawBody: { NeutronError: { type, message, detail } } });
}

export const badRequest = (message: string) => neutronError(400, 'HTTPBadRequest', message);
export const policyNotAuthorized = (rule: string) =>
  neutronError(403, 'PolicyNotAuthorized', `${rule} is disallowed by policy`);
export const resourceNotFound = () => neutronError(404, 'HTTPNotFound', 'The resource could not be found.');

/** The NotFound of each resource, worded as neutron-lib's exceptions. */
export const notFoundOf = {
  network: (id: string) => neutronError(404, 'NetworkNotFound', `Network ${id} could not be found.`),
  subnet: (id: string) => neutronError(404, 'SubnetNotFound', `Subnet ${id} could not be found.`),
  port: (id: string) => neutronError(404, 'PortNotFound', `Port ${id} could not be found.`),
  security_group: (id: string) =>
    neutronError(404, 'SecurityGroupNotFound', `Security group ${id} does not exist`),
  security_group_rule: (id: string) =>
    neutronError(404, 'SecurityGroupRuleNotFound', `Security group rule ${id} does not exist`),
  extension: (alias: string) =>
    neutronError(404, 'HTTPNotFound', `Extension with alias ${alias} does not exist`),
};

/** The last handler: every error in Neutron's format (keystonemiddleware's 401 keeps its own body). */
export const neutronFaults: ErrorRequestHandler = (err, req, res, _next) => {
  const e = toOpenStackError(err, req.ctx.log);
  if (res.headersSent) return;
  for (const [k, v] of Object.entries(e.options.headers ?? {})) res.setHeader(k, v);
  if (e.options.rawBody !== undefined) {
    res.status(e.status).json(e.options.rawBody);
    return;
  }
  if (e.status === 500) {
    res.status(500).json({
      NeutronError: {
        type: 'HTTPInternalServerError',
        message: 'Request Failed: internal server error while processing your request.',
        detail: '',
      },
    });
    return;
  }
  res
    .status(e.status)
    .json({ NeutronError: { type: HTTP_TYPES[e.status] ?? 'HTTPError', message: e.message, detail: '' } });
};

/** A router that answers every path it reaches with Neutron's 404. */
export function notFoundRouter(): Router {
  const r = Router();
  r.use(() => {
    throw resourceNotFound();
  });
  return r;
}
