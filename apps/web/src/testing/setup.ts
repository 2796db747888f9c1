import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { server } from './msw-server';

/** Requests no handler answered during the test: each is a mistake of the test (or of the app). */
const unanswered: string[] = [];

beforeAll(() => {
  server.listen({
    onUnhandledRequest: (request, print) => {
      const url = new URL(request.url);
      unanswered.push(`${request.method} ${url.pathname}${url.search}`);
      print.error();
    },
  });
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
  server.events.removeAllListeners();
  const missed = unanswered.splice(0);
  if (missed.length > 0) throw new Error(`No handler answered ${missed.join(', ')}`);
});
afterAll(() => {
  server.close();
});
