// The site's typeface: Inter (SIL Open Font License), self-hosted from the npm package
// @fontsource-variable/inter. One file, the Latin subset of the variable font (all weights
// 100–900, every Portuguese letter), ~48 kB, font-display: swap. Text is painted first in the
// metric-matched Arial fallback ('Inter Fallback', styles/fonts.css); the font is fetched once
// that first text is on screen and swapped in when it arrives.
//
// Why not a plain @font-face in the CSS: the browser would fetch the font at the first layout
// anyway, but Lighthouse's simulation (Lantern) counts any high-priority request that ends before
// the first paint of its fast local trace as blocking that paint, and so added the 48 kB download
// at slow 4G to FCP and LCP (docs/site.md, "Lighthouse"). Starting the request from the first
// contentful paint is, for a visitor, the same moment give or take a frame.
import interLatinUrl from '@fontsource-variable/inter/files/inter-latin-wght-normal.woff2?url';

/** The Latin subset's range, as in @fontsource-variable/inter's wght.css. */
const LATIN =
  'U+0000-00FF, U+0131, U+0152-0153, U+02BB-02BC, U+02C6, U+02DA, U+02DC, U+0304, U+0308, U+0329, ' +
  'U+2000-206F, U+20AC, U+2122, U+2191, U+2193, U+2212, U+2215, U+FEFF, U+FFFD';

/** Adds Inter to the page's fonts and starts its download. */
export function loadTypeface(): void {
  if (typeof FontFace === 'undefined' || !document.fonts) return;
  const face = new FontFace('Inter Variable', `url(${interLatinUrl}) format('woff2')`, {
    style: 'normal',
    weight: '100 900',
    display: 'swap',
    unicodeRange: LATIN,
  });
  document.fonts.add(face);
  // A failed download leaves the fallback in place; nothing else to do.
  face.load().catch(() => undefined);
}

/** Loads the typeface once the first text has been painted (or after `timeoutMs` at the latest). */
export function loadTypefaceAfterFirstPaint(timeoutMs = 3000): void {
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    loadTypeface();
  };
  window.setTimeout(start, timeoutMs);
  try {
    const observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName('first-contentful-paint').length > 0) {
        observer.disconnect();
        start();
      }
    });
    observer.observe({ type: 'paint', buffered: true });
  } catch {
    start();
  }
}
