import { describe, expect, it } from 'vitest';
import { OpenStackError } from '../../platform/http/errors.js';
import { lastCompletedMonth, parseAuditBefore } from './usage-audit-log.service.js';

const iso = (d: Date) => d.toISOString().slice(0, 19);

describe('the usage audit period (utils.last_completed_audit_period, unit month)', () => {
  it('is the month before the one the time falls in', () => {
    const { begin, end } = lastCompletedMonth(new Date('2026-11-25T06:00:00Z'));
    expect([iso(begin), iso(end)]).toEqual(['2026-10-01T00:00:00', '2026-11-01T00:00:00']);
  });

  it('goes one month further back at the very start of a month, and across a year', () => {
    const { begin, end } = lastCompletedMonth(new Date('2026-01-01T00:00:00Z'));
    expect([iso(begin), iso(end)]).toEqual(['2025-11-01T00:00:00', '2025-12-01T00:00:00']);
  });
});

describe('the time of GET /os-instance_usage_audit_log/{before}', () => {
  it('takes %Y-%m-%d %H:%M:%S with or without a fraction', () => {
    expect(iso(parseAuditBefore('2026-11-25 06:00:00'))).toBe('2026-11-25T06:00:00');
    expect(parseAuditBefore('2026-11-25 06:00:00.5').getUTCMilliseconds()).toBe(500);
  });

  it.each(['invalid_time', '2026-02-30 00:00:00', '2026-11-25T06:00:00', '2026-11-25 06:00:00.'])(
    'refuses %s with Nova’s message',
    (id) => {
      expect(() => parseAuditBefore(id)).toThrow(OpenStackError);
      expect(() => parseAuditBefore(id)).toThrow(`Invalid timestamp for date ${id}`);
    },
  );
});
