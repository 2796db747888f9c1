import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RawResponse, sendRaw } from '../../../cloud/test/fuzz/raw-http.js';
import { type ApiClient, startStack, type TestStack } from '../helpers/stack.js';
import { apiErrorProblem } from './bff-fuzzer.js';

/** What the BFF fuzz found, pinned as plain cases (each was a 500 before its fix), and its oracle. */

let stack: TestStack;
let demo: ApiClient;

beforeAll(async () => {
  stack = await startStack();
  demo = await stack.signIn('demo');
});
afterAll(async () => {
  await stack.close();
});

/** As a signed-in browser, but byte for byte: fetch would resolve `..` itself. */
const send = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
  sendRaw(stack.bffUrl, {
    method,
    path,
    headers: {
      Accept: 'application/json',
      Cookie: demo.cookie!,
      ...(method === 'GET' ? {} : { 'X-CSRF-Token': demo.csrf! }),
      ...headers,
    },
    ...(body !== undefined ? { body: Buffer.from(body) } : {}),
  });
const errorOf = (res: RawResponse) => (JSON.parse(res.text) as { error: { code: string } }).error;

describe('the BFF answers 4xx, in its error format, where it answered 500', () => {
  it('a path parameter that does not percent-decode', async () => {
    const res = await send('DELETE', '/api/volumes/%ZZ');
    expect(res.status).toBe(400);
    expect(errorOf(res)).toMatchObject({ code: 'malformed_url', message: 'The request URL is not valid.' });
  });

  it('a body in a character set or encoding it cannot read', async () => {
    const latin = await send(
      'POST',
      '/api/volumes',
      { 'Content-Type': 'application/json; charset=latin-7' },
      '{}',
    );
    expect(latin.status).toBe(415);
    expect(errorOf(latin).code).toBe('unsupported_body');
    const gzip = await send(
      'POST',
      '/api/volumes',
      { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
      '{"name": "x"}',
    );
    expect(gzip.status).toBe(400);
    expect(errorOf(gzip).code).toBe('malformed_body');
  });

  it('an id that names one of the cloud’s collections (detail, summary)', async () => {
    for (const [method, path] of [
      ['GET', '/api/volumes/detail'],
      ['GET', '/api/volumes/summary'],
      ['DELETE', '/api/volumes/detail'],
      ['GET', '/api/servers/detail'],
    ] as const) {
      const res = await send(method, path);
      expect({ path, status: res.status, code: errorOf(res).code }).toEqual({
        path,
        status: 404,
        code: 'not_found',
      });
    }
  });

  it('an id of `..` does not reach another of the cloud’s resources', async () => {
    // GET /compute/v2.1/servers/.. would be the version document; DELETE /volumes/.. the collection.
    for (const [method, path] of [
      ['GET', '/api/servers/..'],
      ['GET', '/api/servers/%2e%2e'],
      ['DELETE', '/api/volumes/..'],
      ['GET', '/api/volumes/.'],
    ] as const) {
      const res = await send(method, path);
      expect({ path, status: res.status, code: errorOf(res).code }).toEqual({
        path,
        status: 404,
        code: 'not_found',
      });
    }
  });
});

describe("the fuzz's error-format oracle", () => {
  const answer = (status: number, body: unknown, type = 'application/json; charset=utf-8'): RawResponse => ({
    status,
    headers: { 'content-type': type, 'x-request-id': 'req-1' },
    text: typeof body === 'string' ? body : JSON.stringify(body),
    truncated: false,
  });

  it('accepts the typed error and refuses anything else', () => {
    expect(
      apiErrorProblem(answer(404, { error: { code: 'not_found', message: 'x', requestId: 'req-1' } }), 'GET'),
    ).toBeNull();
    expect(
      apiErrorProblem(
        answer(400, {
          error: { code: 'invalid_request', message: 'y', details: { a: 1 }, requestId: 'req-1' },
        }),
        'GET',
      ),
    ).toBeNull();
    expect(
      apiErrorProblem(
        answer(409, { error: { code: 'volume_in_use', message: 'y', requestId: 'req-1' } }),
        'GET',
      ),
    ).toMatch(/not one of the contract's codes/);
    expect(apiErrorProblem(answer(404, { error: { code: 'not_found', message: 'x' } }), 'GET')).toMatch(
      /X-Request-Id/,
    );
    expect(
      apiErrorProblem(answer(404, { error: { code: 'not_found', message: 'x', requestId: 'req-2' } }), 'GET'),
    ).toMatch(/X-Request-Id/);
    expect(apiErrorProblem(answer(404, 'Cannot GET /api/x', 'text/html'), 'GET')).toMatch(/content type/);
    expect(apiErrorProblem(answer(400, { message: 'x' }), 'GET')).toMatch(/not an ApiError/);
    expect(
      apiErrorProblem(answer(400, { error: { code: 'internal', message: 'y', stack: 's' } }), 'GET'),
    ).toMatch(/not an ApiError|unexpected error fields/);
    expect(apiErrorProblem(answer(400, { error: { code: 'Not Found', message: 'y' } }), 'GET')).toMatch(
      /snake_case/,
    );
  });
});
