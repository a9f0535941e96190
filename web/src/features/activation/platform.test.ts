import { describe, expect, it } from 'vitest';
import { STORES } from '../../content/company';
import { detectPlatform, productTarget, storeRedirectTarget } from './platform';
import { variantForPath } from './variants';

describe('platform', () => {
  it('tells iOS, Android and computers apart', () => {
    expect(detectPlatform('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)')).toBe('ios');
    expect(detectPlatform('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)', 5)).toBe('ios');
    expect(detectPlatform('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)', 0)).toBe('desktop');
    expect(detectPlatform('Mozilla/5.0 (Linux; Android 14; Pixel 8)')).toBe('android');
    expect(detectPlatform('Mozilla/5.0 (X11; Linux x86_64)')).toBe('desktop');
  });

  it('redirects to the store of the platform or to /seguranca', () => {
    expect(storeRedirectTarget('ios')).toBe(STORES.seguranca.ios);
    expect(storeRedirectTarget('android')).toBe(STORES.seguranca.android);
    expect(storeRedirectTarget('desktop')).toBe('/seguranca');
  });

  it('opens a product store on mobile and its page in a new tab on a computer', () => {
    expect(productTarget('cloud', 'android')).toEqual({ href: STORES.cloud.android, newTab: false });
    expect(productTarget('gestao', 'ios')).toEqual({ href: STORES.gestao.ios, newTab: false });
    expect(productTarget('gestao', 'desktop')).toEqual({ href: '/gestao', newTab: true });
  });

  it('maps the six routes to their variants', () => {
    expect(variantForPath('/seguranca/ativar')).toBe('standard');
    expect(variantForPath('/seguranca/ativarbradescoseguros')).toBe('insurance');
    expect(variantForPath('/seguranca/ativarsumicity')).toBe('partner_portal');
    expect(variantForPath('/seguranca/ativarbrisanet/')).toBe('broadband');
    expect(variantForPath('/seguranca/ativaragility')).toBe('telecom');
    expect(variantForPath('/seguranca/tim')).toBe('carrier');
    expect(variantForPath('/seguranca')).toBeNull();
  });
});
