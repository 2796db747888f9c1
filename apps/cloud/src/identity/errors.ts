import { OpenStackError } from '../platform/http/errors.js';

/** Keystone's exception texts (keystone/exception.py), each with its HTTP status. */

export const AUTH_FAILED = 'The request you have made requires authentication.';

/** Unauthorized hides its detail unless insecure_debug is on, so every 401 reads the same. */
export const unauthorized = () => new OpenStackError(401, AUTH_FAILED);

/** ForbiddenAction: a policy rule refused the call. */
export const forbiddenAction = (action: string) =>
  new OpenStackError(403, `You are not authorized to perform the requested action: ${action}.`);

/** Forbidden (a SecurityError): its own detail is hidden too. */
export const forbidden = () =>
  new OpenStackError(403, 'You are not authorized to perform the requested action.');

/** ForbiddenNotSecurity: a 403 whose text is shown as is. */
export const forbiddenNotSecurity = (message: string) => new OpenStackError(403, message);

export const notFound = (message: string) => new OpenStackError(404, message);
export const projectNotFound = (id: string) => notFound(`Could not find project: ${id}.`);
export const userNotFound = (id: string) => notFound(`Could not find user: ${id}.`);
export const roleNotFound = (id: string) => notFound(`Could not find role: ${id}.`);
export const domainNotFound = (id: string) => notFound(`Could not find domain: ${id}.`);
export const roleAssignmentNotFound = (roleId: string, actorId: string, targetId: string) =>
  notFound(
    `Could not find role assignment with role: ${roleId}, user or group: ${actorId}, project, domain, or system: ${targetId}.`,
  );

/** Conflict: `type` is the entity, `details` what the storage layer said. */
export const conflict = (type: string, details: string) =>
  new OpenStackError(409, `Conflict occurred attempting to store ${type} - ${details}.`);

/**
 * `sql.handle_conflicts`: the storage layer's wording, naming the domain only when the stored
 * dict carried one (users on create, never global roles).
 */
export const duplicateEntry = (type: string, name: string, domainId?: string) =>
  conflict(
    type,
    `Duplicate entry found with name ${name}${domainId !== undefined ? ` at domain ID ${domainId}` : ''}`,
  );

const NOT_COMPLY =
  'The server could not comply with the request since it is either malformed or otherwise incorrect. The client is assumed to be in error.';

/** ValidationError's own format: "Expecting to find X in Y. ..." */
export const expectingToFind = (attribute: string, target: string) =>
  new OpenStackError(400, `Expecting to find ${attribute} in ${target}. ${NOT_COMPLY}`);

/** A ValidationError raised with a message of its own (shown as is). */
export const validationMessage = (message: string) => new OpenStackError(400, message);

export const MALFORMED_BODY = expectingToFind('valid JSON', 'request body').message;

/** ResourceDeleteForbidden / ResourceUpdateForbidden for resources with the `immutable` option. */
export const immutable = (verb: 'delete' | 'update', type: string, id: string) =>
  forbiddenNotSecurity(
    `Unable to ${verb} immutable ${type} resource: \`${id}. Set resource option "immutable" to false first.`,
  );

/** The auth methods a stock Keystone enables, listed by AuthMethodNotSupported. */
const KEYSTONE_AUTH_METHODS = ['external', 'password', 'token', 'oauth1', 'mapped', 'application_credential'];

/** AuthMethodNotSupported: the one 401 whose body says more (`identity.methods`). */
export function authMethodNotSupported(): OpenStackError {
  const message = 'Attempted to authenticate with an unsupported method.';
  return new OpenStackError(401, message, {
    rawBody: {
      error: { code: 401, identity: { methods: KEYSTONE_AUTH_METHODS }, message, title: 'Unauthorized' },
    },
  });
}
