import { useEffect, useState } from 'react';

/** Which rows of the page on screen are ticked; cleared when the page shows other rows. */
export function useSelection(ids: readonly string[]) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const key = ids.join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new set of rows (the key) clears the ticks
  useEffect(() => setSelected(new Set()), [key]);
  const toggle = (id: string, on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const allOn = ids.length > 0 && ids.every((id) => selected.has(id));
  const someOn = ids.some((id) => selected.has(id));
  return {
    selected,
    toggle,
    allOn,
    someOn,
    setAll: (on: boolean) => setSelected(on ? new Set(ids) : new Set()),
    clear: () => setSelected(new Set()),
  };
}
