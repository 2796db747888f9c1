import { cpus, loadavg, totalmem } from 'node:os';

/** The q-quantile (0..1) of `values` by nearest rank; NaN for an empty list. */
export function quantile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank]!;
}

export const median = (values: number[]): number => quantile(values, 0.5);
export const p99 = (values: number[]): number => quantile(values, 0.99);

/** Milliseconds with a precision that suits their size: 0.42, 8.31, 131, 2,410. */
export function fmtMs(ms: number): string {
  if (!Number.isFinite(ms)) return '–';
  if (ms < 10) return ms.toFixed(2);
  if (ms < 100) return ms.toFixed(1);
  return Math.round(ms).toLocaleString('en-US');
}

export const fmtInt = (n: number): string => Math.round(n).toLocaleString('en-US');

/** A high-resolution stopwatch in milliseconds. */
export function stopwatch(): () => number {
  const start = process.hrtime.bigint();
  return () => Number(process.hrtime.bigint() - start) / 1e6;
}

/** One line that says what the numbers were measured on. */
export function machine(): string {
  const cpu = cpus();
  const [l1] = loadavg();
  return `${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}/${process.arch}, load average ${l1?.toFixed(1)} at start`;
}
