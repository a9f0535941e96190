import { useCallback, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { EXTERNAL } from '../content/company';
import { MAIN_MENU, SOCIAL_LINKS } from '../content/menu';
import { ExternalLink } from './ExternalLink';
import { ChevronIcon, CloseIcon, ExaLogo, SocialIcon } from './Icons';
import { MenuLink, SubMenuEntry } from './MenuLink';
import { useBackCloses } from './useBackCloses';

interface Props {
  onClose: () => void;
}

/** Full-screen menu for narrow screens (650px or less). Any pick closes it. */
export function MobileMenu({ onClose }: Props) {
  const [productsOpen, setProductsOpen] = useState(false);
  const closeButton = useRef<HTMLButtonElement>(null);
  // Back closes the menu; X and Escape take its history entry away too.
  const leaveEntry = useBackCloses(true, onClose);
  const dismiss = useCallback(() => {
    leaveEntry();
    onClose();
  }, [leaveEntry, onClose]);

  useEffect(() => {
    closeButton.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') dismiss();
    };
    document.addEventListener('keydown', onKey);
    // The page behind must not scroll while the menu covers it.
    const previous = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.removeEventListener('keydown', onKey);
      document.body.style.overflow = previous;
    };
  }, [dismiss]);

  // Portalled to <body> so it covers everything, the floating chatbot icon included
  // (inside the sticky header it would share the header's stacking level).
  return createPortal(
    <div id="menu-mobile" className="mobile-menu" role="dialog" aria-modal="true" aria-label="Menu">
      <div className="mobile-menu__top">
        <ExaLogo inverted />
        <button ref={closeButton} type="button" className="icon-button" aria-label="Fechar menu" onClick={dismiss}>
          <CloseIcon size={28} />
        </button>
      </div>
      <nav aria-label="Menu principal (celular)">
        <ul className="mobile-menu__list">
          {MAIN_MENU.map((item) =>
            item.subMenu ? (
              <li key={item.title}>
                <button
                  type="button"
                  className="mobile-menu__link mobile-menu__toggle"
                  aria-expanded={productsOpen}
                  aria-controls="menu-mobile-produtos"
                  onClick={() => setProductsOpen((value) => !value)}
                >
                  {item.title}
                  <ChevronIcon open={productsOpen} size={20} />
                </button>
                {productsOpen && (
                  <ul id="menu-mobile-produtos" className="mobile-menu__sublist">
                    {item.subMenu.map((entry) => (
                      <li key={entry.title}>
                        <MenuLink item={entry} className="submenu__link" onPick={onClose}>
                          <SubMenuEntry item={entry} />
                        </MenuLink>
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            ) : (
              <li key={item.title}>
                <MenuLink item={item} className="mobile-menu__link" onPick={onClose} />
              </li>
            ),
          )}
        </ul>
      </nav>
      <ExternalLink href={EXTERNAL.cloudApp} className="button button--primary mobile-menu__cloud" onClick={onClose}>
        Acessar meu EXA Cloud
      </ExternalLink>
      <ul className="mobile-menu__social" aria-label="Redes sociais">
        {SOCIAL_LINKS.map((social) => (
          <li key={social.name}>
            <ExternalLink href={social.url} className="icon-button" aria-label={`EXA no ${social.name}`} onClick={onClose}>
              <SocialIcon name={social.icon} />
            </ExternalLink>
          </li>
        ))}
      </ul>
    </div>,
    document.body,
  );
}
