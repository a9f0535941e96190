import { describe, expect, it } from 'vitest';
import { termsSections, TERMS_SECTIONS } from './terms';

describe('terms', () => {
  it("fill in the operator's legal name and CNPJ, never a made-up one", () => {
    const text = JSON.stringify(termsSections({ legalName: 'EXA Operadora S.A.', cnpj: '11.222.333/0001-81' }));
    expect(text).toContain('A EXA Operadora S.A., CNPJ 11.222.333/0001-81, oferece');
    expect(text).not.toMatch(/\{razaoSocial\}|\{cnpj\}|12\.345\.678/);
    expect(JSON.stringify(TERMS_SECTIONS)).toContain('CNPJ 00.000.000/0001-00');
  });
});
