import { useCallback, useEffect, useRef } from 'react';
import { openChatbot } from '../../../components/Chatbot';
import { CloseIcon } from '../../../components/Icons';
import { useBackCloses } from '../../../components/useBackCloses';
import { SerialLabel } from './SerialLabel';

/** Set to a video address (an embeddable player URL) to show it in the panel. */
export const HELP_VIDEO_URL: string | null = null;

interface Props {
  open: boolean;
  onClose: () => void;
}

function HelpVideo() {
  if (HELP_VIDEO_URL) {
    return (
      <iframe
        className="cloud-help__video"
        src={HELP_VIDEO_URL}
        title="Vídeo: como encontrar o número de série"
        loading="lazy"
        allowFullScreen
      />
    );
  }
  // The slot keeps its place with the same steps in text until a video is configured.
  return (
    <figure className="cloud-help__video cloud-help__video--steps" data-testid="help-video">
      <figcaption>Como encontrar o número de série</figcaption>
      <ol>
        <li>Desligue o computador e vire-o com cuidado sobre uma superfície macia.</li>
        <li>Procure a etiqueta embaixo do notebook ou atrás do gabinete.</li>
        <li>Copie o código ao lado de "S/N" ou "Número de série", sem espaços.</li>
      </ol>
    </figure>
  );
}

/** The side panel about the serial label, over a mask that closes it. */
export function HelpPanel({ open, onClose }: Props) {
  const closeButton = useRef<HTMLButtonElement>(null);
  // The phone's Back closes the panel; X, Escape and the mask take its history entry away too
  // (the support button leaves it to the chat panel it opens).
  const leaveEntry = useBackCloses(open, onClose);
  const dismiss = useCallback(() => {
    leaveEntry();
    onClose();
  }, [leaveEntry, onClose]);

  useEffect(() => {
    if (!open) return;
    closeButton.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') dismiss();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, dismiss]);

  if (!open) return null;
  return (
    <>
      <div className="cloud-help-mask" data-testid="help-mask" aria-hidden="true" onClick={dismiss} />
      <aside className="cloud-help" role="dialog" aria-modal="true" aria-labelledby="cloud-help-title">
        <div className="cloud-help__header">
          <h2 id="cloud-help-title">Onde encontro o número de série?</h2>
          <button
            ref={closeButton}
            type="button"
            className="icon-button cloud-help__close"
            aria-label="Fechar ajuda"
            onClick={dismiss}
          >
            <CloseIcon />
          </button>
        </div>
        <p>
          O número de série fica na etiqueta do computador, ao lado de <strong>S/N</strong>. Ele tem até 21 letras e
          números.
        </p>
        <SerialLabel />
        <HelpVideo />
        <p className="cloud-help__support-text">Ainda com dúvida? Fale com a nossa assistente virtual.</p>
        <button
          type="button"
          className="button button--primary cloud-help__support"
          onClick={() => {
            onClose();
            openChatbot();
          }}
        >
          OBTER AJUDA DO SUPORTE
        </button>
      </aside>
    </>
  );
}
