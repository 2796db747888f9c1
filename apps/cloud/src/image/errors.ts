import { OpenStackError } from '../platform/http/errors.js';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  503: 'Service Unavailable',
};

/**
 * Glance answers errors with webob's bodies, not a fault format: for a JSON client
 * `{"message": "<explanation><br /><br />\n\n\n", "code": "404 Not Found", "title": "Not Found"}`.
 */
export function glanceError(
  status: number,
  explanation: string,
  headers?: Record<string, string>,
): OpenStackError {
  const title = TITLES[status] ?? 'Error';
  return new OpenStackError(status, explanation, {
    rawBody: { message: `${explanation}<br /><br />\n\n\n`, code: `${status} ${title}`, title },
    ...(headers ? { headers } : {}),
  });
}
