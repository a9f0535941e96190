import { useEffect, useRef, useState, type CSSProperties } from 'react';
import { useLocation } from 'react-router';
import { ChatFrame } from './ChatFrame';
import { useHydrated } from './useHydrated';
import { usePublicConfig } from './usePublicConfig';
import { useStepAside } from './useStepAside';
import { useBackCloses } from './useBackCloses';

/** Query flag that opens the panel on arrival: /?show-bot */
export const SHOW_BOT_PARAM = 'show-bot';
const OPEN_EVENT = 'exa:open-chatbot';

/** Lets other screens (help buttons in the flows) open the panel. */
export function openChatbot(): void {
  window.dispatchEvent(new Event(OPEN_EVENT));
}

const OWN_AVATAR = '/img/chatbot-avatar.svg';

/** Floating chatbot: an icon that opens a 400px panel with the orchestrator host's frame. */
export function Chatbot() {
  const { search } = useLocation();
  const config = usePublicConfig();
  const [open, setOpen] = useState(false);
  const closeButton = useRef<HTMLButtonElement>(null);
  const launcher = useRef<HTMLButtonElement>(null);
  const openedByVisitor = useRef(false);
  // The launcher never sits on a control: it rises above one, or tucks away while a field has focus.
  const { lift, tucked } = useStepAside(launcher);

  // ?show-bot on arrival, or later (a link inside the site), opens the panel: state adjusted while
  // rendering the address, not in an effect after it. Not while hydrating a prerendered page,
  // whose HTML has the launcher: the render right after hydration opens it.
  const hydrated = useHydrated();
  const [seenSearch, setSeenSearch] = useState<string | null>(null);
  if (hydrated && search !== seenSearch) {
    setSeenSearch(search);
    if (new URLSearchParams(search).has(SHOW_BOT_PARAM)) setOpen(true);
  }

  useEffect(() => {
    const onOpen = () => {
      openedByVisitor.current = true;
      setOpen(true);
    };
    window.addEventListener(OPEN_EVENT, onOpen);
    return () => window.removeEventListener(OPEN_EVENT, onOpen);
  }, []);

  // Move focus only when the visitor asked for the panel, not when ?show-bot opened it.
  useEffect(() => {
    if (open && openedByVisitor.current) closeButton.current?.focus();
  }, [open]);

  const closeByBack = () => {
    setOpen(false);
    openedByVisitor.current = false;
  };
  // The phone's Back closes the panel; its own close takes the history entry away too.
  const leaveEntry = useBackCloses(open, closeByBack);
  const close = () => {
    leaveEntry();
    setOpen(false);
    openedByVisitor.current = false;
    requestAnimationFrame(() => launcher.current?.focus());
  };

  if (!open) {
    return (
      <button
        ref={launcher}
        type="button"
        className={tucked ? 'chatbot-launcher chatbot-launcher--tucked' : 'chatbot-launcher'}
        data-tucked={tucked}
        style={{ '--lift': `${lift}px` } as CSSProperties}
        aria-label="Abrir chat de atendimento"
        onClick={() => {
          openedByVisitor.current = true;
          setOpen(true);
        }}
      >
        <img src={OWN_AVATAR} width="64" height="64" alt="" />
      </button>
    );
  }

  return (
    <section className="chatbot-panel" role="dialog" aria-label="Chat de atendimento EXA" data-testid="chatbot-panel">
      <div className="chatbot-panel__header">
        <img
          src={config?.chatbotAvatarUrl ?? OWN_AVATAR}
          width="40"
          height="40"
          alt="Avatar da assistente virtual da EXA"
        />
        <p className="chatbot-panel__title">Atendimento EXA</p>
        <button ref={closeButton} type="button" className="button button--ghost chatbot-panel__close" onClick={close}>
          Fechar
        </button>
      </div>
      <ChatFrame config={config} />
    </section>
  );
}
