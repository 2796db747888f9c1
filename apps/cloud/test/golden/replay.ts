import { expect } from 'vitest';
import { type HttpResult, http, type Session, type TestCloud } from '../helpers/cloud.js';
import {
  type Capture,
  type CompareCaptureOptions,
  compareCapture,
  type Json,
  loadCapture,
  mapCapturePath,
} from './capture.js';

/** A recorded exchange and this cloud's answer to the same request. */
export interface Replayed {
  capture: Capture;
  res: HttpResult;
}

/**
 * Replays recorded Nova/Cinder exchanges on the bundled cloud, as demo or admin, in a scenario
 * that makes its own resources: `ids` maps each recorded id to the one made here, and is applied
 * to the request's URL and body and to the recorded fault messages.
 */
export function captureReplayer(cloud: () => { tc: TestCloud; demo: Session; admin: Session }) {
  const ids: Record<string, string> = {};
  const replace = (text: string) => {
    let out = text;
    for (const [from, to] of Object.entries(ids)) out = out.split(from).join(to);
    return out;
  };

  async function replay(n: number, as: 'demo' | 'admin'): Promise<Replayed> {
    const { tc, demo, admin } = cloud();
    const capture = loadCapture(n);
    const version = capture.request.headers['OpenStack-API-Version'];
    const body = capture.request.body;
    const res = await http(tc, capture.request.method, mapCapturePath(replace(capture.request.url)), {
      token: (as === 'demo' ? demo : admin).token,
      ...(version ? { version } : {}),
      ...(body === null || body === '' ? {} : { rawBody: replace(JSON.stringify(body)) }),
    });
    return { capture, res };
  }

  /** Same status, keys, value types and formats as recorded (and equal values at `opts.exact`). */
  function expectLike(got: Replayed, opts: CompareCaptureOptions = {}) {
    const { capture, res } = got;
    const diffs = compareCapture(capture, res.status, res.text === '' ? '' : (res.body as Json), {
      formats: true,
      replaceIds: ids,
      ...opts,
    });
    expect(diffs, capture.file).toEqual([]);
  }

  /** Same status and fault, with the recorded ids swapped for ours (or `message` when given). */
  function expectSameFault(got: Replayed, message?: string) {
    expectLike(got);
    const recorded = got.capture.response.body as Record<string, { message: string }>;
    const [name, value] = Object.entries(recorded)[0]!;
    expect((got.res.body as Record<string, { message: string }>)[name]?.message, got.capture.file).toBe(
      message ?? replace(value.message),
    );
  }

  return { ids, replace, replay, expectLike, expectSameFault };
}
