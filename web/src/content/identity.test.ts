import { describe, expect, it } from 'vitest';
import { PLACEHOLDER_IDENTITY, seals, telHref, whatsappHref, withPlaceholders } from './identity';

describe('identity', () => {
  it('fills what the operator did not set with placeholders', () => {
    const identity = withPlaceholders({ cnpj: '11.222.333/0001-81' });
    expect(identity.cnpj).toBe('11.222.333/0001-81');
    expect(identity.legalName).toBe(PLACEHOLDER_IDENTITY.legalName);
    expect(withPlaceholders(undefined)).toEqual(PLACEHOLDER_IDENTITY);
  });

  it('shows only the ethical-company seal, never a self-awarded one', () => {
    expect(seals(PLACEHOLDER_IDENTITY)).toEqual([{ src: '/img/seal-empresa-etica.svg', alt: 'Selo Empresa Ética certificada' }]);
    expect(seals({ ...PLACEHOLDER_IDENTITY, ethicsSealUrl: 'https://certificadora.exemplo/selo.png' })[0].src).toBe(
      'https://certificadora.exemplo/selo.png',
    );
    const all = JSON.stringify(seals(PLACEHOLDER_IDENTITY));
    expect(all).not.toMatch(/LGPD|site seguro/i);
  });

  it('builds tel: and WhatsApp addresses from printed numbers', () => {
    expect(telHref('0800 000 1234')).toBe('tel:08000001234');
    expect(telHref('(11) 3000-0000')).toBe('tel:+551130000000');
    expect(whatsappHref('(11) 99999-0000')).toBe('https://wa.me/5511999990000');
    expect(whatsappHref('+55 11 99999-0000')).toBe('https://wa.me/5511999990000');
  });
});
