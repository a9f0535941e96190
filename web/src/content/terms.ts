// Text of our terms of use and privacy policy. The terms screen shows it and
// web/scripts/make-pdfs.mjs prints the same JSON into the PDF under /assets.
import terms from './terms.json';
import { PLACEHOLDER_IDENTITY, type CompanyIdentity } from './identity';

export interface TermsSection {
  title: string;
  paragraphs: readonly string[];
}

export const TERMS_UPDATED_AT: string = terms.updatedAt;

/** The sections with the company's legal name and CNPJ ({razaoSocial}, {cnpj} in the JSON) filled in. */
export function termsSections(identity: Pick<CompanyIdentity, 'legalName' | 'cnpj'>): readonly TermsSection[] {
  const fill = (text: string) => text.replaceAll('{razaoSocial}', identity.legalName).replaceAll('{cnpj}', identity.cnpj);
  return terms.sections.map((section) => ({ title: section.title, paragraphs: section.paragraphs.map(fill) }));
}

export const TERMS_SECTIONS: readonly TermsSection[] = termsSections(PLACEHOLDER_IDENTITY);
