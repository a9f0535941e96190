import { useEffect } from 'react';
import { COMPANY } from '../content/company';

export interface PageMeta {
  title: string;
  description: string;
  /** Activation pages pass true: they must stay out of search results. */
  noindex?: boolean;
}

const SITE_NAME = 'EXA';

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
  useEffect(() => {
    const fullTitle = title.includes(SITE_NAME) ? title : `${title} | ${SITE_NAME}`;
    // Canonical and og:url point at the public domain, whichever host serves this copy.
    const url = `${COMPANY.siteUrl}${window.location.pathname}`;
    document.title = fullTitle;
    upsertMeta('name', 'description', description);
    upsertMeta('name', 'robots', noindex ? 'noindex, nofollow' : 'index, follow');
    upsertMeta('property', 'og:type', 'website');
    upsertMeta('property', 'og:site_name', SITE_NAME);
    upsertMeta('property', 'og:locale', 'pt_BR');
    upsertMeta('property', 'og:title', fullTitle);
    upsertMeta('property', 'og:description', description);
    upsertMeta('property', 'og:url', url);
    upsertMeta('property', 'og:image', `${COMPANY.siteUrl}/og-image.png`);
    upsertCanonical(url);
  }, [title, description, noindex]);
}

/** Component form of usePageMeta, for pages that prefer markup. */
export function Seo(props: PageMeta) {
  usePageMeta(props);
  return null;
}
