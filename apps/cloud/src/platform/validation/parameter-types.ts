/**
 * The boolean parameter type Nova's and Cinder's schemas share (`parameter_types.boolean`) and
 * oslo's `strutils.bool_from_string`, which reads the values those schemas accept.
 */

/** `parameter_types.boolean`'s enum as Cinder (and Nova's servers and volume attachments) list it. */
export const BOOLEAN_ENUM = [
  true,
  'True',
  'TRUE',
  'true',
  '1',
  'ON',
  'On',
  'on',
  'YES',
  'Yes',
  'yes',
  'y',
  't',
  false,
  'False',
  'FALSE',
  'false',
  '0',
  'OFF',
  'Off',
  'off',
  'NO',
  'No',
  'no',
  'n',
  'f',
] as const;

const ONE_LETTER = new Set<unknown>(['y', 't', 'n', 'f']);

/** Nova's older list without the one-letter spellings (its flavor and os-services schemas). */
export const BOOLEAN_ENUM_NO_LETTERS: readonly unknown[] = BOOLEAN_ENUM.filter((v) => !ONE_LETTER.has(v));

const TRUE_STRINGS = ['1', 't', 'true', 'on', 'y', 'yes'];
const FALSE_STRINGS = ['0', 'f', 'false', 'off', 'n', 'no'];

/** oslo's `bool_from_string(strict=True)`: null where oslo would raise ValueError. */
export function strictBoolFromString(v: unknown): boolean | null {
  if (typeof v === 'boolean') return v;
  const s = String(v).trim().toLowerCase();
  if (TRUE_STRINGS.includes(s)) return true;
  if (FALSE_STRINGS.includes(s)) return false;
  return null;
}

/** oslo's `bool_from_string` (not strict): anything it does not recognise as true is False. */
export const boolFromString = (v: unknown): boolean => strictBoolFromString(v) === true;
