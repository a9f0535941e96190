import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { ErrorBanner } from './ErrorBanner';

describe('ErrorBanner', () => {
  it('turns {link} into an "aqui" link to the contact page', () => {
    render(
      <MemoryRouter>
        <ErrorBanner message="Ops, ocorreu um erro. Clique {link} para falar conosco!" onDismiss={() => {}} />
      </MemoryRouter>,
    );
    const link = screen.getByRole('link', { name: 'aqui' });
    expect(link.getAttribute('href')).toBe('/contato');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(screen.getByRole('alert').textContent).toBe('Ops, ocorreu um erro. Clique aqui para falar conosco!');
  });

  it('turns URLs into "aqui" links in a new tab and closes with the X', () => {
    const onDismiss = vi.fn();
    render(
      <MemoryRouter>
        <ErrorBanner message="Veja https://exemplo.com.br/ajuda para mais detalhes." onDismiss={onDismiss} />
      </MemoryRouter>,
    );
    const link = screen.getByRole('link', { name: 'aqui' });
    expect(link.getAttribute('href')).toBe('https://exemplo.com.br/ajuda');
    expect(link.getAttribute('target')).toBe('_blank');
    fireEvent.click(screen.getByRole('button', { name: 'Fechar aviso de erro' }));
    expect(onDismiss).toHaveBeenCalledTimes(1);
  });
});
