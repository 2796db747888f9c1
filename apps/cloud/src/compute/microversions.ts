import { Microversion } from '../platform/http/microversion.js';

export const COMPUTE_MIN = Microversion.of('2.1');
/** Real Nova stops at 2.104; 2.105 is the multiattach enhancements spec (seeds/002). */
export const COMPUTE_MAX = Microversion.of('2.105');
export const ENHANCEMENTS_VERSION = '2.105';
