import { SEED_IMAGE_ID } from '../../cloud/src/image/seed.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, startStack, type TestStack } from './helpers/stack.js';

/**
 * Issue 11, finding 12 (the BFF's part): sizes and counts are JSON integers in range, never strings,
 * booleans or arrays converted by the schema; a JSON body is UTF-8; a body that is not JSON is refused.
 */

let stack: TestStack;
let demo: ApiClient;
beforeAll(async () => {
  stack = await startStack();
  demo = await stack.signIn('demo');
});
afterAll(async () => {
  await stack.close();
});

/** Numbers in disguise that z.coerce.number() took: 16, 1, 1, 1000, 16. */
const LOOSE = ['0x10', [1], true, '1e3', '16', ' 8 ', '', null, 1.5, 0, -1, 16_385, 1e300];

const send = (method: string, path: string, body: string | Uint8Array, contentType: string) =>
  fetch(stack.bffUrl + path, {
    method,
    headers: {
      Accept: 'application/json',
      'Content-Type': contentType,
      Cookie: demo.cookie!,
      'X-CSRF-Token': demo.csrf!,
    },
    body,
  });

describe('sizes and counts', () => {
  it('refuses a volume size that is not a JSON integer from 1 to 16384', async () => {
    for (const sizeGb of LOOSE) {
      const res = await demo.post('/api/volumes', { name: 'loose', sizeGb });
      expect({ sizeGb, status: res.status, code: res.body?.error?.code }).toEqual({
        sizeGb,
        status: 400,
        code: 'invalid_request',
      });
      expect(res.body.error.details.fields.sizeGb).toEqual(expect.any(String));
    }
    const volumes = await demo.get('/api/volumes');
    expect(volumes.body.volumes.filter((v: { name: string }) => v.name === 'loose')).toEqual([]);
  });

  it('takes a JSON integer', async () => {
    const res = await demo.post('/api/volumes', { name: 'strict', sizeGb: 2 });
    expect(res.status).toBe(201);
    expect(res.body.sizeGb).toBe(2);
  });

  it('refuses a launch count that is not a JSON integer from 1 to 200', async () => {
    const launch = (count: unknown) => ({
      name: 'loose',
      count,
      flavorId: '1',
      boot: { source: 'image', imageId: SEED_IMAGE_ID },
    });
    for (const count of ['2', [2], true, '1e1', '0x2', 2.5, 0, 201, null]) {
      for (const path of ['/api/launches/plan', '/api/launches']) {
        const res = await demo.post(path, launch(count));
        expect({ path, count, status: res.status, field: res.body?.error?.details?.fields?.count }).toEqual({
          path,
          count,
          status: 400,
          field: expect.any(String),
        });
      }
    }
    expect((await demo.post('/api/launches/plan', launch(2))).status).toBe(200);
  });
});

describe('bodies', () => {
  it('refuses a JSON body that is not UTF-8 (it became U+FFFD and was stored)', async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"name":"bad'),
      Buffer.from([0xff, 0xfe, 0xc3]),
      Buffer.from('","sizeGb":1}'),
    ]);
    const res = await send('POST', '/api/volumes', bytes, 'application/json');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: {
        code: 'malformed_json',
        message: 'The request body is not valid UTF-8.',
        requestId: res.headers.get('x-request-id'),
      },
    });
    const volumes = await demo.get('/api/volumes');
    expect(volumes.body.volumes.some((v: { name: string }) => v.name.startsWith('bad'))).toBe(false);
  });

  it('refuses a body that is not JSON (400), or JSON in another character set (415)', async () => {
    const json = JSON.stringify({ name: 'typed', sizeGb: 1 });
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const res = await send('POST', '/api/volumes', json, type);
      expect({ type, status: res.status }).toEqual({ type, status: 400 });
      expect(await res.json()).toEqual({
        error: {
          code: 'invalid_request',
          message: 'Send the request body as JSON (Content-Type: application/json).',
          requestId: res.headers.get('x-request-id'),
        },
      });
    }
    const utf16 = await send(
      'POST',
      '/api/volumes',
      Buffer.from(json, 'utf16le'),
      'application/json; charset=utf-16le',
    );
    expect(utf16.status).toBe(415);
    expect(((await utf16.json()) as { error: { code: string } }).error.code).toBe('unsupported_body');
  });

  it('answers a missing body with a message that says so', async () => {
    const res = await demo.request('POST', '/api/volumes');
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({
      code: 'invalid_request',
      message: 'This request needs a JSON body.',
      requestId: expect.stringMatching(/^req-/),
    });
  });
});
