import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { repoRoot } from './repo-root.js';

export { freePort } from '../reliability/helpers/processes.js';

/** A process started from the repository's root, with everything it writes kept. */
export interface Started {
  readonly child: ChildProcess;
  /** stdout and stderr, in order of arrival. */
  output(): string;
  /** Resolves with the first output line matching `pattern`; rejects if the process exits first. */
  line(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
}

export function startProcess(command: string, args: string[], env: NodeJS.ProcessEnv): Started {
  const child = spawn(command, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const waiters = new Set<() => void>();
  const keep = (b: Buffer) => {
    out += b.toString();
    for (const w of waiters) w();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    child,
    output: () => out,
    line(pattern, timeoutMs = 120_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = out.split('\n').find((l) => pattern.test(l));
          if (found !== undefined) return finish(() => resolve(found));
          if (!running()) finish(() => reject(new Error(`exited before printing ${pattern}:\n${out}`)));
        };
        const timer = setTimeout(
          () => finish(() => reject(new Error(`no ${pattern} within ${timeoutMs} ms:\n${out}`))),
          timeoutMs,
        );
        const finish = (then: () => void) => {
          clearTimeout(timer);
          waiters.delete(check);
          then();
        };
        waiters.add(check);
        void exited.then(check);
        check();
      });
    },
    async stop(graceMs = 10_000) {
      if (running()) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Polls `url` until it answers 200. */
export async function until200(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) return;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Every live process whose environment holds `marker` (NAME=value), with its command line and
 * environment: how a test finds the children a script started and sees what they were given.
 * Linux only (/proc).
 */
export function processesWith(marker: string): { pid: number; argv: string[]; env: Map<string, string> }[] {
  const found = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const environ = readFileSync(`/proc/${name}/environ`, 'utf8').split('\0');
      if (!environ.includes(marker)) continue;
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').filter(Boolean);
      const env = new Map(
        environ.filter(Boolean).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
      );
      found.push({ pid: Number(name), argv, env });
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}
