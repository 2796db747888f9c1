import { describe, expect, it } from 'vitest';
import { statusFromAttachments } from './volume-status.js';

describe('statusFromAttachments', () => {
  it('is available with no attachments', () => {
    expect(statusFromAttachments([])).toEqual({ status: 'available', attachStatus: 'detached' });
  });
  it('prefers attached over every transitional state', () => {
    expect(statusFromAttachments(['reserved', 'attached', 'attaching'])).toEqual({
      status: 'in-use',
      attachStatus: 'attached',
    });
  });
  it('orders attaching before detaching before reserved', () => {
    expect(statusFromAttachments(['reserved', 'attaching']).status).toBe('attaching');
    expect(statusFromAttachments(['reserved', 'detaching']).status).toBe('detaching');
    expect(statusFromAttachments(['reserved']).status).toBe('reserved');
  });
  it('ignores attachments in an error state', () => {
    expect(statusFromAttachments(['error_attaching']).status).toBe('available');
    expect(statusFromAttachments(['error_detaching', 'reserved']).status).toBe('reserved');
  });
});
