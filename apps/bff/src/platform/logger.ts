import pino, { type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';

export type { Logger };

/** `pretty`: one readable line per event, for a person at a terminal. `json`: one JSON object per line. */
export type LogFormat = 'pretty' | 'json';

export interface LogOutput {
  format: LogFormat;
  colour: boolean;
}

/** The environment variables that decide how logs look (the same contract as the cloud's and start.mjs). */
export interface LogOutputEnv {
  LOG_FORMAT?: LogFormat | undefined;
  NODE_ENV?: string | undefined;
  NO_COLOR?: string | undefined;
  FORCE_COLOR?: string | undefined;
}

const isSet = (v: string | undefined) => v !== undefined && v !== '' && v !== '0' && v !== 'false';

/**
 * LOG_FORMAT wins; otherwise pretty for a person at a terminal during development, JSON lines for a
 * pipe, a file or production. Colour only on a terminal or with FORCE_COLOR, never with NO_COLOR.
 */
export function logOutputFor(env: LogOutputEnv, stdoutIsTTY: boolean): LogOutput {
  const format = env.LOG_FORMAT ?? (stdoutIsTTY && env.NODE_ENV !== 'production' ? 'pretty' : 'json');
  const colour = !isSet(env.NO_COLOR) && (stdoutIsTTY || isSet(env.FORCE_COLOR));
  return { format, colour };
}

export interface LoggerOptions extends Partial<LogOutput> {
  /** Where lines go (stdout by default); tests pass a stream they read. */
  destination?: DestinationStream;
}

/** The BFF's logger. Without options: JSON lines on stdout, as tests and tools expect. */
export function createLogger(level: string, opts: LoggerOptions = {}): Logger {
  const base = { level, base: { service: 'bff' } };
  if (opts.format === 'pretty') {
    return pino(
      base,
      pretty({
        colorize: opts.colour ?? false,
        singleLine: true,
        translateTime: 'SYS:HH:MM:ss.l',
        // The access line's message already says method, path, status and time.
        ignore: 'pid,hostname,service,req,res,responseTime',
        sync: true,
        ...(opts.destination ? { destination: opts.destination } : {}),
      }),
    );
  }
  return opts.destination ? pino(base, opts.destination) : pino(base);
}
