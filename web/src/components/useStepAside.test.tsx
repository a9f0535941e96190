import { act, render, screen } from '@testing-library/react';
import { useRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { coversAControl, useStepAside } from './useStepAside';

function Launcher() {
  const ref = useRef<HTMLButtonElement>(null);
  const { lift, tucked } = useStepAside(ref);
  return (
    <button ref={ref} type="button" data-lift={lift} data-tucked={tucked}>
      chat
    </button>
  );
}

const nextFrame = () => act(() => new Promise<void>((resolve) => requestAnimationFrame(() => resolve())));

function place(element: HTMLElement, top: number) {
  element.getBoundingClientRect = () => new DOMRect(300, top, 64, 64);
}

afterEach(() => {
  // jsdom has no hit testing; each test stubs its own.
  Reflect.deleteProperty(document, 'elementsFromPoint');
  vi.restoreAllMocks();
});

describe('the chat launcher steps aside', () => {
  it('knows a control from plain content under a box', () => {
    const own = document.createElement('div');
    const text = document.createElement('p');
    const link = document.createElement('a');
    link.href = '/faq';
    place(own, 100);
    document.elementsFromPoint = () => [own, text];
    expect(coversAControl(own)).toBe(false);
    document.elementsFromPoint = () => [own, link];
    expect(coversAControl(own)).toBe(true);
  });

  it('rises above a control under it and tucks away while a field has focus', async () => {
    const field = document.createElement('input');
    const control = document.createElement('button');
    document.body.append(field, control);
    // A control sits under the launcher's place until it rises by one step or more.
    document.elementsFromPoint = () => {
      const launcher = screen.getByRole('button', { name: 'chat' });
      return launcher.style.getPropertyValue('--lift') === '0px' || launcher.style.getPropertyValue('--lift') === '' ? [control] : [];
    };
    render(<Launcher />);
    place(screen.getByRole('button', { name: 'chat' }), 700);
    await nextFrame();
    const launcher = screen.getByRole('button', { name: 'chat' });
    expect(launcher.dataset.lift).toBe('76');
    expect(launcher.dataset.tucked).toBe('false');

    act(() => field.focus());
    await nextFrame();
    expect(launcher.dataset.tucked).toBe('true');
    act(() => field.blur());
    await nextFrame();
    expect(launcher.dataset.tucked).toBe('false');
    field.remove();
    control.remove();
  });
});
