/**
 * The smallest text the topology graph shows on screen, measured in a real browser (Playwright's
 * page.evaluate): every visible text node inside `.react-flow`, its computed font size times the
 * viewport's zoom when it is inside the zoomed canvas. The e2e journey and the page bench both
 * use it, so "legible" means the same thing in both.
 *
 * One self-contained function with no helpers: Playwright sends its source text to the page, and
 * a bundler's name-keeping wrappers around inner functions would not exist there.
 */
export interface TextProbe {
  /** Smallest on-screen font size in px (Infinity when nothing is written). */
  min: number;
  /** The text that has it. */
  text: string;
  /** Text nodes measured. */
  count: number;
  /** The canvas's zoom. */
  zoom: number;
  /** Graph nodes in the DOM. */
  nodes: number;
}

export const smallestGraphText = (): TextProbe | null => {
  const root = document.querySelector('.react-flow');
  if (!root) return null;
  const viewport = root.querySelector('.react-flow__viewport');
  const zoom = viewport ? new DOMMatrixReadOnly(getComputedStyle(viewport).transform).a : 1;
  const box = root.getBoundingClientRect();
  let min = Number.POSITIVE_INFINITY;
  let text = '';
  let count = 0;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const content = n.textContent?.trim();
    const el = n.parentElement;
    if (!content || !el) continue;
    const r = el.getBoundingClientRect();
    // Screen-reader-only text is clipped to a pixel; text scrolled off the canvas is not on screen.
    if (r.width <= 1 || r.height <= 1) continue;
    if (r.right <= box.left || r.left >= box.right || r.bottom <= box.top || r.top >= box.bottom) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none' || Number(style.opacity) === 0) continue;
    const px = Number.parseFloat(style.fontSize) * (viewport?.contains(el) ? zoom : 1);
    count++;
    if (px < min) {
      min = px;
      text = content.slice(0, 40);
    }
  }
  return { min, text, count, zoom, nodes: root.querySelectorAll('.react-flow__node').length };
};
