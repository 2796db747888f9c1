import { cloudUnreachable, faultFromBody } from './fault.js';

export interface OpenStackRequest {
  method?: string;
  body?: unknown;
  token?: string;
  /** e.g. `compute 2.60`: sent as OpenStack-API-Version (and Nova's legacy header for compute). */
  microversion?: string;
  headers?: Record<string, string>;
  /** Let these statuses through instead of raising a fault (e.g. 404 for "does it exist"). */
  allow?: number[];
}

export interface OpenStackResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/** One HTTP call to an OpenStack service; faults become OpenStackFault, network errors 503. */
export async function callOpenStack<T = unknown>(
  service: string,
  url: string,
  req: OpenStackRequest = {},
): Promise<OpenStackResponse<T>> {
  const headers: Record<string, string> = { Accept: 'application/json', ...req.headers };
  if (req.token) headers['X-Auth-Token'] = req.token;
  if (req.body !== undefined) headers['Content-Type'] = 'application/json';
  if (req.microversion) {
    headers['OpenStack-API-Version'] = req.microversion;
    const [name, version] = req.microversion.split(' ');
    if (name === 'compute' && version) headers['X-OpenStack-Nova-API-Version'] = version;
  }
  let res: Response;
  try {
    res = await fetch(url, {
      method: req.method ?? 'GET',
      headers,
      ...(req.body !== undefined ? { body: JSON.stringify(req.body) } : {}),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (err) {
    throw cloudUnreachable(url, err);
  }
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  if (res.status >= 400 && !req.allow?.includes(res.status)) {
    throw faultFromBody(service, res.status, body, res.headers.get('x-openstack-request-id'));
  }
  return { status: res.status, headers: res.headers, body: body as T };
}
