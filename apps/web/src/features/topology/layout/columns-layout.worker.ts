import { serveLayouts } from './serve-layouts';

// Big graphs never use elk, so their worker does not download or compile its 1.5 MB.
serveLayouts();
