/**
 * The one error type every service throws. It carries the HTTP status and the exact
 * OpenStack message; each service renders it in its own fault format (see faults.ts).
 */
export class OpenStackError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly options: {
      /** Extra response headers (e.g. WWW-Authenticate). */
      headers?: Record<string, string>;
      /** A body to send as it is, for the few faults that are not in the service's format. */
      rawBody?: unknown;
      /** Skip echoing the microversion headers, as real services do for some early faults. */
      noVersionHeaders?: boolean;
    } = {},
  ) {
    super(message);
    this.name = 'OpenStackError';
  }
}

export const badRequest = (message: string) => new OpenStackError(400, message);
export const unauthorized = (message = 'The request you have made requires authentication.') =>
  new OpenStackError(401, message);
export const forbidden = (message: string) => new OpenStackError(403, message);
export const notFound = (message: string) => new OpenStackError(404, message);
export const conflict = (message: string) => new OpenStackError(409, message);

/** oslo.policy's wording, used by Nova and Cinder for a denied rule. */
export const policyForbidden = (rule: string) => forbidden(`Policy doesn't allow ${rule} to be performed.`);

/** webob's generic texts, which real services return for routing and header problems. */
export const WEBOB_NOT_FOUND = 'The resource could not be found.';
export const WEBOB_BAD_REQUEST =
  'The server could not comply with the request since it is either malformed or otherwise incorrect.';
