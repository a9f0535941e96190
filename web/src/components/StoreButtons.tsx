import { ExternalLink } from './ExternalLink';

interface Props {
  android: string;
  ios: string;
  product: string;
}

function PlayMark() {
  return (
    <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="M4 2.5v19l10-9.5z" fill="#19c3a6" />
      <path d="M4 2.5l13 7.3-3 2.7z" fill="#7be3d1" />
      <path d="M4 21.5l13-7.3-3-2.7z" fill="#0e8f7a" />
      <path d="M17 9.8l3.3 1.9c.7.4.7 1.2 0 1.6L17 14.2 14 12z" fill="#ffd166" />
    </svg>
  );
}

function AppleMark() {
  return (
    <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d="M16.4 12.7c0-2.4 2-3.5 2-3.6-1.1-1.6-2.8-1.8-3.4-1.8-1.4-.1-2.8.9-3.5.9-.7 0-1.8-.9-3-.8-1.6 0-3 .9-3.8 2.3-1.6 2.8-.4 7 1.2 9.2.8 1.1 1.7 2.3 2.9 2.3 1.2-.1 1.6-.8 3-.8s1.8.8 3 .7c1.3 0 2.1-1.1 2.8-2.2.9-1.3 1.3-2.5 1.3-2.6 0 0-2.5-1-2.5-3.6zM14.2 5.6c.6-.8 1.1-1.8 1-2.9-.9 0-2.1.6-2.7 1.4-.6.7-1.1 1.8-1 2.8 1 .1 2.1-.5 2.7-1.3z"
        fill="currentColor"
      />
    </svg>
  );
}

/** Google Play and App Store buttons for one product; both open the store in a new tab. */
export function StoreButtons({ android, ios, product }: Props) {
  return (
    <ul className="store-buttons" aria-label={`Baixar o ${product}`}>
      <li>
        <ExternalLink href={android} className="store-button">
          <PlayMark />
          <span>
            <small>Disponível no</small> Google Play
          </span>
        </ExternalLink>
      </li>
      <li>
        <ExternalLink href={ios} className="store-button">
          <AppleMark />
          <span>
            <small>Baixar na</small> App Store
          </span>
        </ExternalLink>
      </li>
    </ul>
  );
}
