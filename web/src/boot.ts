// The entry of the prerendered pages (scripts/prerender.mjs writes it in place of the app's
// entry): it starts the app's modules once the page's first text is painted, then the app
// hydrates the page (main.tsx). The page lists the modules in `data-modules` on its root, the
// app's entry first.
//
// Why after the paint: the prerendered HTML paints with no script at all, and Lighthouse's
// simulation (Lantern) counts every request that ends before the first paint of its fast local
// trace as holding up that paint (see typeface.ts), so fetched with the page, the 86 kB of
// JavaScript would be charged at slow 4G to FCP and LCP. On a visitor's connection the paint
// comes first anyway; the price is that hydration starts a round trip later. Self-contained on
// purpose: any import would be one more request before the paint.

function start(): void {
  const modules = document.getElementById('root')?.dataset.modules?.split(' ').filter(Boolean) ?? [];
  const [entry, ...rest] = modules;
  if (!entry) return;
  for (const href of rest) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    document.head.append(link);
  }
  void import(/* @vite-ignore */ entry);
}

let started = false;
function once(): void {
  if (started) return;
  started = true;
  start();
}

// At the latest after 3 s (a page opened in a background tab paints only once shown).
window.setTimeout(once, 3000);
if (typeof PerformanceObserver !== 'undefined' && PerformanceObserver.supportedEntryTypes?.includes('paint')) {
  const observer = new PerformanceObserver((list) => {
    if (list.getEntriesByName('first-contentful-paint').length > 0) {
      observer.disconnect();
      once();
    }
  });
  observer.observe({ type: 'paint', buffered: true });
} else {
  requestAnimationFrame(() => requestAnimationFrame(once));
}
