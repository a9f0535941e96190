import { describe, expect, it } from 'vitest';
import { resendingIn as activationCountdown } from './activation/texts';
import { resendingIn as cloudCountdown } from './cloud/texts';
import { TEXTS } from './download/texts';

// Issue 29: the last second of a countdown reads "1 segundo", not "1 segundos".
describe('resend countdowns', () => {
  it('say "segundo" in the singular at 1 and "segundos" otherwise', () => {
    expect(activationCountdown(1)).toBe('Reenviando em 1 segundo...');
    expect(activationCountdown(60)).toBe('Reenviando em 60 segundos...');
    expect(cloudCountdown(1)).toBe('Reenviando em 1 segundo...');
    expect(cloudCountdown(10)).toBe('Reenviando em 10 segundos...');
    expect(TEXTS.resendIn(1)).toBe('Reenviar código em 1 segundo');
    expect(TEXTS.resendIn(90)).toBe('Reenviar código em 90 segundos');
  });
});
