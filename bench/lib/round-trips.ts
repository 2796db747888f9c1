/**
 * Sequential round trips, read from the times a proxy saw each call arrive and leave.
 *
 * Two calls wait on each other when the second starts only after the first was answered; calls in
 * flight together overlap. The longest chain of calls each starting after the previous one ended is
 * the number of round trips the client waited in a row: with every call costing a fixed latency L,
 * no client can finish in less than chain × L, and one that overlapped everything it could would
 * have a chain as short as its data dependencies allow. It counts calls made one after another
 * without needing to be (a loop over servers) exactly as it should: each is a round trip waited for.
 */

export interface Timed {
  start: number;
  end: number;
}

/** The longest chain of calls in which each starts at or after the previous one's end. */
export function longestChain<T extends Timed>(calls: readonly T[]): T[] {
  const sorted = [...calls].sort((a, b) => a.start - b.start || a.end - b.end);
  const length: number[] = [];
  const previous: number[] = [];
  let best = -1;
  for (let i = 0; i < sorted.length; i++) {
    length[i] = 1;
    previous[i] = -1;
    for (let j = 0; j < i; j++) {
      if (sorted[j]!.end <= sorted[i]!.start && length[j]! + 1 > length[i]!) {
        length[i] = length[j]! + 1;
        previous[i] = j;
      }
    }
    if (best < 0 || length[i]! > length[best]!) best = i;
  }
  const chain: T[] = [];
  for (let i = best; i >= 0; i = previous[i]!) chain.unshift(sorted[i]!);
  return chain;
}

export const sequentialRoundTrips = (calls: readonly Timed[]): number => longestChain(calls).length;

/**
 * Calls split where the client went quiet for at least `gapMs` (no call in flight, none started):
 * the rounds of a polling loop, which sleeps between rounds and calls back to back within one.
 */
export function bursts<T extends Timed>(calls: readonly T[], gapMs: number): T[][] {
  const sorted = [...calls].sort((a, b) => a.start - b.start);
  const out: T[][] = [];
  let current: T[] = [];
  let busyUntil = Number.NEGATIVE_INFINITY;
  for (const c of sorted) {
    if (current.length > 0 && c.start - busyUntil >= gapMs) {
      out.push(current);
      current = [];
    }
    current.push(c);
    busyUntil = current.length === 1 ? c.end : Math.max(busyUntil, c.end);
  }
  if (current.length > 0) out.push(current);
  return out;
}

export interface CallSummary {
  calls: number;
  roundTrips: number;
  /** From the first call's arrival to the last call's answer. */
  spanMs: number;
}

export function summariseCalls(calls: readonly Timed[]): CallSummary {
  if (calls.length === 0) return { calls: 0, roundTrips: 0, spanMs: 0 };
  const start = Math.min(...calls.map((c) => c.start));
  const end = Math.max(...calls.map((c) => c.end));
  return { calls: calls.length, roundTrips: sequentialRoundTrips(calls), spanMs: end - start };
}
