import type { Store } from '../../platform/db/store.js';
import { badRequest, notFound } from '../../platform/http/errors.js';
import { flavorsStore } from '../store/flavors.store.js';
import { type Caller, extraSpecsOf, getFlavor } from './flavors.service.js';

/**
 * Writing a flavor's extra specs (flavors_extraspecs.py): merged into the stored set as strings
 * (Nova's DictOfStringsField), the body answered back as sent. Nova 2.86+ also checks known
 * namespaces against its registry of extra specs; this cloud does not (see docs).
 */
const asStrings = (specs: Record<string, string | number>) =>
  Object.fromEntries(Object.entries(specs).map(([k, v]) => [k, String(v)]));

/** `_check_extra_specs_value`: a number's text is at most 255 characters too. */
function checkValues(specs: Record<string, string | number>): void {
  for (const v of Object.values(specs)) {
    if (typeof v === 'number' && String(v).length > 255) {
      throw badRequest(`extra_specs value has more than 255 characters.`);
    }
  }
}

export async function mergeExtraSpecs(
  store: Store,
  caller: Caller,
  flavorId: string,
  specs: Record<string, string | number>,
): Promise<void> {
  checkValues(specs);
  await store.transaction(async (tx) => {
    const f = await getFlavor(tx, flavorId, caller);
    await flavorsStore.updateExtraSpecs(tx, f.id, { ...extraSpecsOf(f), ...asStrings(specs) });
  });
}

/** PUT of one key: the key in the URL must be the body's. */
export async function setExtraSpec(
  store: Store,
  caller: Caller,
  flavorId: string,
  key: string,
  body: Record<string, string | number>,
): Promise<void> {
  checkValues(body);
  if (!(key in body)) throw badRequest('Request body and URI mismatch');
  await mergeExtraSpecs(store, caller, flavorId, body);
}

export async function deleteExtraSpec(
  store: Store,
  caller: Caller,
  flavorId: string,
  key: string,
): Promise<void> {
  await store.transaction(async (tx) => {
    const f = await getFlavor(tx, flavorId, caller);
    const specs = extraSpecsOf(f);
    if (!(key in specs)) throw notFound(`Flavor ${flavorId} has no extra specs with key ${key}.`);
    delete specs[key];
    await flavorsStore.updateExtraSpecs(tx, f.id, specs);
  });
}
