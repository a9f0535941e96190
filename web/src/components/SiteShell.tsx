import { useEffect, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { Chatbot } from './Chatbot';
import { Footer } from './Footer';
import { Header } from './Header';

interface Props {
  children: ReactNode;
  showAnnouncement?: boolean;
  headerAction?: ReactNode;
}

/** The frame of every marketing page: skip link, header, content, footer and chatbot. */
export function SiteShell({ children, showAnnouncement, headerAction }: Props) {
  const { pathname, hash } = useLocation();

  // A new page starts at its top unless the address points at a section.
  useEffect(() => {
    if (hash) {
      document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
    } else {
      window.scrollTo(0, 0);
    }
  }, [pathname, hash]);

  return (
    <>
      <a href="#conteudo" className="skip-link">
        Pular para o conteúdo
      </a>
      <Header showAnnouncement={showAnnouncement} action={headerAction} />
      <main id="conteudo" tabIndex={-1}>
        {children}
      </main>
      <Footer />
      <Chatbot />
    </>
  );
}
