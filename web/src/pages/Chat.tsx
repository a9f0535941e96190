import { ChatFrame } from '../components/ChatFrame';
import { usePageMeta } from '../components/Seo';
import { SiteShell } from '../components/SiteShell';
import { usePublicConfig } from '../components/usePublicConfig';

export default function Chat() {
  usePageMeta({
    title: 'Chat de atendimento',
    description: 'Converse com a assistente virtual da EXA para tirar dúvidas, ativar produtos e falar com o suporte.',
  });
  const config = usePublicConfig();

  return (
    <SiteShell>
      <section className="page-hero" aria-labelledby="chat-title">
        <div className="container">
          <h1 id="chat-title">Chat de atendimento</h1>
          <p className="hero__lead">Nossa assistente virtual responde na hora e, se precisar, chama uma pessoa do suporte.</p>
        </div>
      </section>
      <div className="section">
        <div className="container chat-page">
          <ChatFrame config={config} className="chat-frame chat-frame--page" />
        </div>
      </div>
    </SiteShell>
  );
}
