import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLogger, logOutputFor } from '../../src/platform/logger.js';
import { logBuffer } from './log-buffer.js';

// The log format contract shared with the cloud and scripts/start.mjs: LOG_FORMAT wins; otherwise
// pretty on a terminal outside production, JSON lines elsewhere; colour only on a terminal or with
// FORCE_COLOR, never with NO_COLOR.

const ESC = String.fromCharCode(27);

describe('logOutputFor', () => {
  it.each([
    [{}, true, { format: 'pretty', colour: true }],
    [{}, false, { format: 'json', colour: false }],
    [{ NODE_ENV: 'production' }, true, { format: 'json', colour: true }],
    [{ LOG_FORMAT: 'json' as const }, true, { format: 'json', colour: true }],
    [{ LOG_FORMAT: 'pretty' as const }, false, { format: 'pretty', colour: false }],
    [{ LOG_FORMAT: 'pretty' as const, FORCE_COLOR: '1' }, false, { format: 'pretty', colour: true }],
    [{ FORCE_COLOR: '0' }, false, { format: 'json', colour: false }],
    [{ NO_COLOR: '1' }, true, { format: 'pretty', colour: false }],
    [{ NO_COLOR: '1', FORCE_COLOR: '1' }, true, { format: 'pretty', colour: false }],
    [{ NO_COLOR: '' }, true, { format: 'pretty', colour: true }],
  ])('%j on a terminal=%s gives %j', (env, tty, expected) => {
    expect(logOutputFor(env, tty)).toEqual(expected);
  });

  it('is part of the configuration, and LOG_FORMAT is checked', () => {
    expect(loadConfig({ LOG_FORMAT: 'json' }, true).logOutput).toEqual({ format: 'json', colour: true });
    expect(loadConfig({}, false).logOutput).toEqual({ format: 'json', colour: false });
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT/);
  });
});

describe('createLogger', () => {
  it('writes one JSON object per line in json', () => {
    const out = logBuffer();
    const log = createLogger('info', { format: 'json', destination: out });
    log.info({ volumeId: 'v1' }, 'first');
    log.warn('second');
    expect(out.lines().map((l) => [l.msg, l.service])).toEqual([
      ['first', 'bff'],
      ['second', 'bff'],
    ]);
  });

  it('writes one readable line per event in pretty, without colour codes unless asked', () => {
    const plain = logBuffer();
    const log = createLogger('info', { format: 'pretty', colour: false, destination: plain });
    log.info({ req: { method: 'GET' }, requestId: 'req-1' }, 'GET /api/volumes 200 3ms');
    const text = plain.raw.join('');
    expect(text.trimEnd().split('\n')).toHaveLength(1);
    expect(text).toMatch(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/api\/volumes 200 3ms \{"requestId":"req-1"\}\n$/,
    );
    expect(text).not.toContain(ESC);

    const coloured = logBuffer();
    createLogger('info', { format: 'pretty', colour: true, destination: coloured }).info('hello');
    expect(coloured.raw.join('')).toContain(ESC);
  });
});
