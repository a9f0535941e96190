// The build's prerender of the public pages (scripts/prerender.mjs): the same tree as main.tsx,
// with the address fixed, rendered once every lazily loaded page has arrived.
import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { App } from './App';
import { PageMetaCollector, headTags, type HeadTags, type PageMeta } from './components/Seo';

export interface PrerenderedPage {
  /** The markup that goes inside `<div id="root">`. */
  html: string;
  /** The page's title and head tags, as `usePageMeta` would set them in the browser. */
  head: HeadTags;
}

export async function renderPage(path: string): Promise<PrerenderedPage> {
  const seen: { meta?: PageMeta } = {};
  const { prelude } = await prerender(
    <StrictMode>
      <StaticRouter location={path}>
        <PageMetaCollector
          value={(pageMeta) => {
            seen.meta = pageMeta;
          }}
        >
          <App />
        </PageMetaCollector>
      </StaticRouter>
    </StrictMode>,
    {
      onError(error) {
        throw error;
      },
    },
  );
  const html = await new Response(prelude).text();
  if (!seen.meta) throw new Error(`${path}: the page set no title (usePageMeta)`);
  return { html, head: headTags(seen.meta, path) };
}
