import { createContext, useContext, useEffect } from 'react';
import { COMPANY } from '../content/company';

export interface PageMeta {
  title: string;
  description: string;
  /** Activation pages pass true: they must stay out of search results. */
  noindex?: boolean;
}

const SITE_NAME = 'EXA';

/** The head tags of a page, as `usePageMeta` writes them and the prerender build prints them. */
export interface HeadTags {
  title: string;
  /** `[attribute, key, content]` of each `<meta>`, in order. */
  meta: ['name' | 'property', string, string][];
  canonical: string;
}

/** The tags for `meta` on the page at `pathname`. */
export function headTags({ title, description, noindex = false }: PageMeta, pathname: string): HeadTags {
  const fullTitle = title.includes(SITE_NAME) ? title : `${title} | ${SITE_NAME}`;
  // Canonical and og:url point at the public domain, whichever host serves this copy.
  const url = `${COMPANY.siteUrl}${pathname}`;
  return {
    title: fullTitle,
    meta: [
      ['name', 'description', description],
      ['name', 'robots', noindex ? 'noindex, nofollow' : 'index, follow'],
      ['property', 'og:type', 'website'],
      ['property', 'og:site_name', SITE_NAME],
      ['property', 'og:locale', 'pt_BR'],
      ['property', 'og:title', fullTitle],
      ['property', 'og:description', description],
      ['property', 'og:url', url],
      ['property', 'og:image', `${COMPANY.siteUrl}/og-image.png`],
    ],
    canonical: url,
  };
}

/**
 * Set only while a page is prerendered (src/entry-server.tsx): effects do not run there, so
 * `usePageMeta` hands its tags to the build, which writes them into the page's `<head>`.
 */
export const PageMetaCollector = createContext<((meta: PageMeta) => void) | null>(null);

function upsertMeta(attribute: 'name' | 'property', key: string, content: string): void {
  let tag = document.head.querySelector<HTMLMetaElement>(`meta[${attribute}="${key}"]`);
  if (!tag) {
    tag = document.createElement('meta');
    tag.setAttribute(attribute, key);
    document.head.appendChild(tag);
  }
  tag.content = content;
}

function upsertCanonical(href: string): void {
  let link = document.head.querySelector<HTMLLinkElement>('link[rel="canonical"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'canonical';
    document.head.appendChild(link);
  }
  link.href = href;
}

/**
 * Sets the document title, description, robots and Open Graph tags for the current page.
 * Written imperatively so each tag exists once, whatever index.html starts with.
 */
export function usePageMeta({ title, description, noindex = false }: PageMeta): void {
  useContext(PageMetaCollector)?.({ title, description, noindex });
  useEffect(() => {
    const tags = headTags({ title, description, noindex }, window.location.pathname);
    document.title = tags.title;
    for (const [attribute, key, content] of tags.meta) upsertMeta(attribute, key, content);
    upsertCanonical(tags.canonical);
  }, [title, description, noindex]);
}

/** Component form of usePageMeta, for pages that prefer markup. */
export function Seo(props: PageMeta) {
  usePageMeta(props);
  return null;
}
