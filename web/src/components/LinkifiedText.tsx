import { Fragment } from 'react';
import { ExternalLink } from './ExternalLink';

// A URL runs to the next blank; punctuation that ends a sentence is not part of it.
const URL_PATTERN = /https?:\/\/[^\s<>"]*[^\s<>".,;:!?)]/g;

export interface TextPart {
  kind: 'text' | 'link';
  value: string;
}

/** Splits text into plain runs and URLs, in order. */
export function splitLinks(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const start = match.index ?? 0;
    if (start > last) parts.push({ kind: 'text', value: text.slice(last, start) });
    parts.push({ kind: 'link', value: match[0] });
    last = start + match[0].length;
  }
  if (last < text.length) parts.push({ kind: 'text', value: text.slice(last) });
  return parts;
}

interface Props {
  text: string;
  /** The label every URL is shown as: 'clique aqui' in the FAQ, 'aqui' in error banners. */
  label: string;
}

/** Renders text with each URL replaced by a link labelled `label`, opening in a new tab. */
export function LinkifiedText({ text, label }: Props) {
  return (
    <>
      {splitLinks(text).map((part, index) =>
        part.kind === 'link' ? (
          <ExternalLink key={index} href={part.value}>
            {label}
          </ExternalLink>
        ) : (
          <Fragment key={index}>{part.value}</Fragment>
        ),
      )}
    </>
  );
}
