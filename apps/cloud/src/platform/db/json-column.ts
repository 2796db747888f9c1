/**
 * A JSON column read back (the schema keeps JSON as text): the parsed value, or `fallback` when
 * the column is empty or not JSON. The caller names what the column holds.
 */
export function parseJsonColumn<T>(text: string | null, fallback: T): T {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}
