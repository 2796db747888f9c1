import { OpenStackError } from '../platform/http/errors.js';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
};

/**
 * Glance answers errors with webob's bodies, not a fault format: for a JSON client
 * `{"message": "<explanation><br /><br />\n\n\n", "code": "404 Not Found", "title": "Not Found"}`.
 */
export function glanceError(status: number, explanation: string): OpenStackError {
  const title = TITLES[status] ?? 'Error';
  return new OpenStackError(status, explanation, {
    rawBody: { message: `${explanation}<br /><br />\n\n\n`, code: `${status} ${title}`, title },
  });
}
