import { Router } from 'express';

/** Version discovery (GET /compute/ and GET /compute/v2.1): filled in with the compute API. */
export function computeVersionRoutes(): Router {
  return Router();
}
