export { type ApiError, apiErrorSchema } from './errors.js';
