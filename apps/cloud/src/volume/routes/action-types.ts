import type express from 'express';

/**
 * One `POST /volumes/{id}/action` handler. The volumes route reads the body's single key,
 * then calls the handler registered for it with that key's value as `args`.
 */
export type ActionHandler = (
  req: express.Request,
  res: express.Response,
  volumeId: string,
  args: unknown,
) => Promise<void>;
