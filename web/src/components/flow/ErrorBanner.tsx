import './flow.css';
import { Fragment } from 'react';
import { LinkifiedText } from '../LinkifiedText';

/** The contact page that `{link}` in the spec's messages points to. */
export const CONTACT_PATH = '/contato';

interface Props {
  message: string;
  onDismiss: () => void;
  /** Lets a field point at the banner with aria-describedby. */
  id?: string;
}

/**
 * The dismissible error banner of the three flows, one red design: `{link}` in a message becomes a link labelled
 * 'aqui' to the contact page, and every URL in it a link labelled 'aqui'; both open in a new
 * tab, like the FAQ's, so the half-finished form stays where it was.
 */
export function ErrorBanner({ message, onDismiss, id }: Props) {
  const pieces = message.split('{link}');
  return (
    <div className="flow-error" role="alert" id={id}>
      <p className="flow-error__text">
        {pieces.map((piece, index) => (
          <Fragment key={index}>
            {index > 0 && (
              <a href={CONTACT_PATH} target="_blank" rel="noopener">
                aqui
              </a>
            )}
            <LinkifiedText text={piece} label="aqui" />
          </Fragment>
        ))}
      </p>
      <button type="button" className="flow-error__close" aria-label="Fechar aviso de erro" onClick={onDismiss}>
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
          <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" />
        </svg>
      </button>
    </div>
  );
}
