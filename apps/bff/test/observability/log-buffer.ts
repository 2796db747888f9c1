import { Writable } from 'node:stream';

/** A log line as pino writes it. */
export interface LogLine {
  level: number;
  msg: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read log fields freely
  [key: string]: any;
}

/** A stream that keeps everything written to it, for tests that read what was logged. */
export class LogBuffer extends Writable {
  readonly raw: string[] = [];

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    this.raw.push(chunk.toString());
    done();
  }

  /** Every JSON line so far. */
  lines(): LogLine[] {
    return this.raw
      .flatMap((chunk) => chunk.split('\n').filter(Boolean))
      .map((l) => JSON.parse(l) as LogLine);
  }
}

export const logBuffer = (): LogBuffer => new LogBuffer();

/** pino's numeric levels. */
export const LEVEL = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 } as const;
