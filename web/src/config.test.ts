import { afterEach, describe, expect, it, vi } from 'vitest';
import { FALLBACK_CONFIG, loadPublicConfig, parsePublicConfig, resetPublicConfigCache } from './config';

function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

describe('parsePublicConfig', () => {
  it('keeps well-formed fields', () => {
    expect(
      parsePublicConfig({
        chatbotUrl: 'https://bot.exemplo.com.br/chat?p=hero',
        chatbotAvatarUrl: 'https://bot.exemplo.com.br/avatar.png',
        sandbox: true,
        smsInboxUrl: 'http://127.0.0.1:8090/sms',
      }),
    ).toEqual({
      chatbotUrl: 'https://bot.exemplo.com.br/chat?p=hero',
      chatbotAvatarUrl: 'https://bot.exemplo.com.br/avatar.png',
      sandbox: true,
      smsInboxUrl: 'http://127.0.0.1:8090/sms',
    });
  });

  it('drops fields with the wrong shape or a dangerous scheme', () => {
    expect(
      parsePublicConfig({ chatbotUrl: 'javascript:alert(1)', chatbotAvatarUrl: 42, sandbox: 'true', smsInboxUrl: null }),
    ).toEqual(FALLBACK_CONFIG);
    expect(parsePublicConfig('texto')).toEqual(FALLBACK_CONFIG);
    expect(parsePublicConfig(null)).toEqual(FALLBACK_CONFIG);
  });
});

describe('loadPublicConfig', () => {
  afterEach(() => resetPublicConfigCache());

  it('fetches once and shares the result', async () => {
    const fetchImpl = vi.fn(async () => jsonResponse({ chatbotUrl: 'https://bot.exemplo.com.br/?p=hero', sandbox: false }));
    const first = await loadPublicConfig(fetchImpl as unknown as typeof fetch);
    const second = await loadPublicConfig(fetchImpl as unknown as typeof fetch);
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    expect(first).toBe(second);
    expect(first.chatbotUrl).toBe('https://bot.exemplo.com.br/?p=hero');
  });

  it('falls back when the server answers an error, HTML or nothing', async () => {
    const failing = [
      async () => jsonResponse({ message: 'erro' }, 500),
      async () => new Response('<!doctype html>', { headers: { 'content-type': 'text/html' } }),
      async () => {
        throw new TypeError('Failed to fetch');
      },
    ];
    for (const impl of failing) {
      resetPublicConfigCache();
      await expect(loadPublicConfig(impl as unknown as typeof fetch)).resolves.toEqual(FALLBACK_CONFIG);
    }
  });
});

describe('the company identity in the public config', () => {
  it('keeps the operator values and drops blanks and wrong shapes', () => {
    const config = parsePublicConfig({
      sandbox: false,
      company: {
        legalName: 'EXA Segurança Ltda.',
        cnpj: '11.222.333/0001-81',
        address: ['Av. Paulista, 1000', '', 7],
        supportPhone: '0800 000 1234',
        supportWhatsapp: '  ',
        ethicsSealUrl: 'javascript:alert(1)',
        pressEmail: 42,
      },
    });
    expect(config.company).toEqual({
      legalName: 'EXA Segurança Ltda.',
      cnpj: '11.222.333/0001-81',
      address: ['Av. Paulista, 1000'],
      supportPhone: '0800 000 1234',
    });
  });
});
