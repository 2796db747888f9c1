import { describe, expect, it } from 'vitest';
import { bursts, longestChain, sequentialRoundTrips, summariseCalls } from './round-trips.js';

const call = (name: string, start: number, end: number) => ({ name, start, end });

describe('sequential round trips', () => {
  it('counts calls in flight together once', () => {
    expect(sequentialRoundTrips([call('a', 0, 40), call('b', 1, 41), call('c', 2, 45)])).toBe(1);
  });

  it('counts calls that each wait for the one before', () => {
    expect(sequentialRoundTrips([call('a', 0, 40), call('b', 41, 81), call('c', 82, 122)])).toBe(3);
  });

  it('follows the longest chain through parallel steps (a sign-in: 3 in a row, then 4 at once)', () => {
    const calls = [
      call('password', 0, 40),
      call('projects', 41, 81),
      call('rescope', 82, 122),
      call('compute', 123, 163),
      call('volume', 123, 170),
      call('topology', 124, 165),
      call('projects-again', 124, 166),
    ];
    expect(longestChain(calls).map((c) => c.name)).toEqual(['password', 'projects', 'rescope', 'compute']);
    expect(summariseCalls(calls)).toEqual({ calls: 7, roundTrips: 4, spanMs: 170 });
  });

  it('takes the longer branch when a slow call overlaps a short chain', () => {
    // `slow` overlaps both `x` and `y`, which run one after the other: the chain is x → y → z.
    const calls = [call('slow', 0, 100), call('x', 1, 40), call('y', 41, 80), call('z', 101, 140)];
    expect(longestChain(calls).map((c) => c.name)).toEqual(['x', 'y', 'z']);
  });

  it('counts a call that starts the moment the previous one ended as waiting for it', () => {
    expect(sequentialRoundTrips([call('a', 0, 40), call('b', 40, 80)])).toBe(2);
  });

  it('has no round trip without calls', () => {
    expect(summariseCalls([])).toEqual({ calls: 0, roundTrips: 0, spanMs: 0 });
    expect(longestChain([])).toEqual([]);
  });
});

describe('bursts', () => {
  it('splits where nothing was in flight for the gap', () => {
    const calls = [
      call('a', 0, 40),
      call('b', 41, 81),
      call('c', 200, 240),
      call('d', 205, 300),
      call('e', 310, 350),
      call('f', 500, 540),
    ];
    expect(bursts(calls, 50).map((b) => b.map((c) => c.name))).toEqual([['a', 'b'], ['c', 'd', 'e'], ['f']]);
  });

  it('keeps a call that starts while a long one is still in flight in its burst', () => {
    const calls = [call('long', 0, 500), call('short', 10, 50), call('late', 400, 440)];
    expect(bursts(calls, 50)).toHaveLength(1);
  });
});
