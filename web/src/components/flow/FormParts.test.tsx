import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Checkbox } from './Checkbox';
import { CodeField } from './CodeField';
import { LoadingButton } from './LoadingButton';
import { PHONE_PLACEHOLDER, PhoneField } from './PhoneField';

function Phone({ onChange }: { onChange: (value: string) => void }) {
  const [value, setValue] = useState('');
  return (
    <PhoneField
      id="p"
      label="Celular"
      hint="Digite apenas números"
      value={value}
      onChange={(next) => {
        setValue(next);
        onChange(next);
      }}
    />
  );
}

describe('the flows’ form parts', () => {
  it('phone field: one mask and the spec’s placeholder, hint tied to the input', () => {
    const onChange = vi.fn();
    render(<Phone onChange={onChange} />);
    const input = screen.getByLabelText('Celular') as HTMLInputElement;
    expect(input.getAttribute('placeholder')).toBe(PHONE_PLACEHOLDER);
    expect(PHONE_PLACEHOLDER).toBe('(xx) xxxxx-xxxx');
    expect(input.getAttribute('inputmode')).toBe('tel');
    expect(input.getAttribute('aria-describedby')).toBe('p-hint');
    expect(screen.getByText('Digite apenas números').id).toBe('p-hint');
    fireEvent.input(input, { target: { value: '11987654321' } });
    expect(input.value).toBe('(11) 98765-4321');
    expect(onChange).toHaveBeenLastCalledWith('(11) 98765-4321');
  });

  it('code field: keeps digits only, at most six', () => {
    const onChange = vi.fn();
    render(<CodeField id="c" label="Código" value="" onChange={onChange} />);
    const input = screen.getByLabelText('Código');
    expect(input.getAttribute('autocomplete')).toBe('one-time-code');
    fireEvent.change(input, { target: { value: '12a34-5678' } });
    expect(onChange).toHaveBeenCalledWith('123456');
  });

  it('checkbox: a real checkbox named by its label', () => {
    const onChange = vi.fn();
    render(
      <Checkbox id="t" checked={false} onChange={onChange} required>
        Li e concordo com os Termos de uso e Privacidade
      </Checkbox>,
    );
    const box = screen.getByRole('checkbox', { name: 'Li e concordo com os Termos de uso e Privacidade' });
    expect(box.getAttribute('aria-required')).toBe('true');
    fireEvent.click(box);
    expect(onChange).toHaveBeenCalledWith(true);
  });

  it('loading button: says what is happening and cannot be pressed twice', () => {
    const { rerender } = render(<LoadingButton busyLabel="Enviando código…">Continuar</LoadingButton>);
    const button = screen.getByRole('button', { name: 'Continuar' }) as HTMLButtonElement;
    expect(button.disabled).toBe(false);
    rerender(
      <LoadingButton busy busyLabel="Enviando código…">
        Continuar
      </LoadingButton>,
    );
    const busy = screen.getByRole('button', { name: 'Enviando código…' }) as HTMLButtonElement;
    expect(busy.disabled).toBe(true);
    expect(busy.getAttribute('aria-busy')).toBe('true');
  });
});
