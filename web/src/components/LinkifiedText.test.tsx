import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LinkifiedText, splitLinks } from './LinkifiedText';

describe('splitLinks', () => {
  it('cuts URLs out of the text, leaving sentence punctuation outside', () => {
    expect(splitLinks('Veja https://www.exa.com.br/faq. Ou https://exa.com.br/a?q=1, depois.')).toEqual([
      { kind: 'text', value: 'Veja ' },
      { kind: 'link', value: 'https://www.exa.com.br/faq' },
      { kind: 'text', value: '. Ou ' },
      { kind: 'link', value: 'https://exa.com.br/a?q=1' },
      { kind: 'text', value: ', depois.' },
    ]);
  });

  it('returns plain text untouched', () => {
    expect(splitLinks('Sem endereço aqui.')).toEqual([{ kind: 'text', value: 'Sem endereço aqui.' }]);
  });
});

describe('LinkifiedText', () => {
  it("shows each URL as a 'clique aqui' link in a new tab", () => {
    render(
      <p>
        <LinkifiedText text="Acesse https://www.exa.com.br/atendimento para falar conosco." label="clique aqui" />
      </p>,
    );
    const link = screen.getByRole('link', { name: 'clique aqui' });
    expect(link.getAttribute('href')).toBe('https://www.exa.com.br/atendimento');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(link.parentElement?.textContent).toBe('Acesse clique aqui para falar conosco.');
  });
});
