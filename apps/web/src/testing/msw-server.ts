import { setupServer } from 'msw/node';

/**
 * The network every web test runs against (MSW, set up in setup.ts). A test adds the BFF's answers
 * it needs with `server.use(bff.get(...), ...)`; a request nothing answers fails the test.
 */
export const server = setupServer();
