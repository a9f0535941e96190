// Where the store redirect and the product buttons send the visitor (spec section 2): the App
// Store on iOS, Google Play on Android, our own pages otherwise.

import { STORES } from '../../content/company';
import type { Platform, Product } from './types';

/** iPadOS reports a Mac user agent; its touch points give it away. */
export function detectPlatform(userAgent: string, maxTouchPoints = 0): Platform {
  if (/iPhone|iPad|iPod/i.test(userAgent)) return 'ios';
  if (/Macintosh/i.test(userAgent) && maxTouchPoints > 1) return 'ios';
  if (/Android/i.test(userAgent)) return 'android';
  return 'desktop';
}

export function currentPlatform(): Platform {
  if (typeof navigator === 'undefined') return 'desktop';
  return detectPlatform(navigator.userAgent, navigator.maxTouchPoints ?? 0);
}

/** Spec section 2: after 3 s, the security app's store, or /seguranca on a computer. */
export const STORE_REDIRECT_MS = 3000;

export function storeRedirectTarget(platform: Platform): string {
  if (platform === 'ios') return STORES.seguranca.ios;
  if (platform === 'android') return STORES.seguranca.android;
  return '/seguranca';
}

const PRODUCT_PAGES: Record<Product, string> = { seguranca: '/seguranca', cloud: '/cloud', gestao: '/gestao' };

export const PRODUCT_NAMES: Record<Product, string> = {
  seguranca: 'EXA Segurança',
  cloud: 'EXA Cloud',
  gestao: 'Gestão Digital',
};

/** A product's download button: its store on mobile, its page in a new tab on a computer. */
export function productTarget(product: Product, platform: Platform): { href: string; newTab: boolean } {
  if (platform === 'ios') return { href: STORES[product].ios, newTab: false };
  if (platform === 'android') return { href: STORES[product].android, newTab: false };
  return { href: PRODUCT_PAGES[product], newTab: true };
}
