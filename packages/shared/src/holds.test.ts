import { describe, expect, it } from 'vitest';
import { isLiveHoldState, isServerHold, isTransitionalHoldState } from './holds.js';

describe('isLiveHoldState', () => {
  it.each(['reserved', 'attaching', 'attached', 'detaching'])('%s holds the volume', (state) => {
    expect(isLiveHoldState(state)).toBe(true);
  });
  it.each(['detached', 'deleted', 'error', 'error_attaching', 'error_detaching'])('%s does not', (state) => {
    expect(isLiveHoldState(state)).toBe(false);
  });
});

describe('isServerHold', () => {
  it('counts a live hold the compute service lists, or cannot be asked about', () => {
    expect(isServerHold({ state: 'attached', knownToCompute: true })).toBe(true);
    expect(isServerHold({ state: 'reserved', knownToCompute: null })).toBe(true);
  });
  it('does not count a record the compute service disowns, nor an ended one', () => {
    expect(isServerHold({ state: 'attached', knownToCompute: false })).toBe(false);
    expect(isServerHold({ state: 'error_attaching', knownToCompute: true })).toBe(false);
  });
});

describe('isTransitionalHoldState', () => {
  it('is true on the way in or out only', () => {
    expect(['reserved', 'attaching', 'detaching'].every(isTransitionalHoldState)).toBe(true);
    expect(['attached', 'detached', 'error_attaching'].some(isTransitionalHoldState)).toBe(false);
  });
});
