// Text of our terms of use and privacy policy. The terms screen shows it and
// web/scripts/make-pdfs.mjs prints the same JSON into the PDF under /assets.
import terms from './terms.json';

export interface TermsSection {
  title: string;
  paragraphs: readonly string[];
}

export const TERMS_UPDATED_AT: string = terms.updatedAt;
export const TERMS_SECTIONS: readonly TermsSection[] = terms.sections;
