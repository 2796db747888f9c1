// Preloaded with NODE_OPTIONS=--import=<this file> (where `--cpu-prof` is not allowed): profiles the
// process's main thread from start to exit and writes a .cpuprofile (Chrome DevTools, speedscope)
// into BENCH_CPU_PROFILE_DIR.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';

const dir = process.env.BENCH_CPU_PROFILE_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.start');
  // A same-thread inspector session answers synchronously, so this works in an exit handler.
  process.on('exit', () => {
    session.post('Profiler.stop', (err, res) => {
      if (!err) writeFileSync(join(dir, `${process.pid}.cpuprofile`), JSON.stringify(res.profile));
    });
  });
}
