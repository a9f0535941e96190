// Small inline icons (decorative: the control that holds one carries the accessible name).

interface IconProps {
  size?: number;
}

export function MenuIcon({ size = 24 }: IconProps) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="M3 6h18M3 12h18M3 18h18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

export function CloseIcon({ size = 24 }: IconProps) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

export function ChevronIcon({ size = 16, open = false }: IconProps & { open?: boolean }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 16 16"
      aria-hidden="true"
      focusable="false"
      style={{ transform: open ? 'rotate(180deg)' : undefined, transition: 'transform .2s' }}
    >
      <path d="M3 6l5 5 5-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

export function SocialIcon({ name, size = 24 }: IconProps & { name: 'instagram' | 'linkedin' }) {
  if (name === 'instagram') {
    return (
      <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <rect x="3" y="3" width="18" height="18" rx="5" fill="none" stroke="currentColor" strokeWidth="2" />
        <circle cx="12" cy="12" r="4" fill="none" stroke="currentColor" strokeWidth="2" />
        <circle cx="17.5" cy="6.5" r="1.3" fill="currentColor" />
      </svg>
    );
  }
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <rect x="3" y="3" width="18" height="18" rx="3" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="M8 10v6M8 7.5v.01M12 16v-6M12 12.5c0-1.5 1-2.5 2.3-2.5S16 11 16 12.5V16" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

/** The EXA wordmark, drawn as paths (our own drawing): the same letters on every platform. */
export const EXA_WORDMARK_PATH =
  'M35 7.5h12.6v3.5h-8.5v3.3h7.8v3.4h-7.8v3.3h8.7v3.5H35zM49.2 7.5h4.6l3.6 5.9 3.6-5.9h4.6l-5.9 8.4 6.2 8.6h-4.7l-3.8-6.1-3.8 6.1H49l6.2-8.6zM72.6 7.5h4.5l6.3 17h-4.3l-1.2-3.4h-6.2l-1.2 3.4h-4.2zm2.2 4.9-1.9 5.4h3.8z';

export function ExaLogo({ inverted = false }: { inverted?: boolean }) {
  const ink = inverted ? '#ffffff' : '#0b1f4b';
  return (
    <svg width="92" height="32" viewBox="0 0 92 32" role="img" aria-label="EXA" focusable="false">
      <path d="M16 2l12 4.7v8.6C28 23.4 22.6 28.7 16 31 9.4 28.7 4 23.4 4 15.3V6.7z" fill="#19c3a6" />
      <path d="M11 16.5l3.6 3.6L21.5 13" fill="none" stroke="#0b1f4b" strokeWidth="2.6" strokeLinecap="round" strokeLinejoin="round" />
      <path d={EXA_WORDMARK_PATH} fill={ink} fillRule="evenodd" />
    </svg>
  );
}
