import ELK from 'elkjs/lib/elk.bundled.js';
import { serveLayouts } from './serve-layouts';

// elk.bundled runs its engine in this thread (its "fake worker"); this file is the real worker.
serveLayouts(new ELK());
