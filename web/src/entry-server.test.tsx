// @vitest-environment node
// The prerender's output (scripts/prerender.mjs writes it into dist/prerendered/). That React
// hydrates it without a mismatch is checked in the browser: tests/e2e/site/prerender.spec.ts.
import { describe, expect, it } from 'vitest';
import { renderPage } from './entry-server';

describe('renderPage', () => {
  it.each([
    ['/', 'Proteção digital para você e sua família'],
    ['/seguranca', 'EXA Segurança'],
    ['/faq', 'Perguntas Frequentes'],
    ['/cloud', 'EXA Cloud'],
    ['/gestao', 'Gestão Digital'],
    ['/contato', 'Contato'],
    ['/seguranca/brisanet', 'Garanta a Proteção Digital da sua família'],
  ])('%s: the whole page, not the loading fallback, with its head tags', async (path, heading) => {
    const { html, head } = await renderPage(path);
    expect(html).toContain(`>${heading}</h1>`);
    expect(html).not.toContain('page-loading');
    expect(html).toContain('<footer class="site-footer">');
    expect(head.canonical).toBe(`https://www.exa.com.br${path}`);
    expect(head.meta).toContainEqual(['name', 'robots', 'index, follow']);
    expect(head.meta).toContainEqual(['property', 'og:url', `https://www.exa.com.br${path}`]);
  });

  it('renders what a first visit sees: the banner and the chat launcher, the placeholders', async () => {
    const { html, head } = await renderPage('/');
    expect(head.title).toBe('EXA | Proteção digital para você e sua família');
    expect(html).toContain('Agora o Hero é EXA Segurança!');
    expect(html).toContain('aria-label="Abrir chat de atendimento"');
    expect(html).not.toContain('data-testid="chatbot-panel"');
    const footer = html.replace(/<!-- -->/g, '');
    expect(footer).toContain(`© ${__BUILD_YEAR__} EXA Tecnologia e Segurança Digital S.A. · CNPJ 00.000.000/0001-00`);
  });
});
