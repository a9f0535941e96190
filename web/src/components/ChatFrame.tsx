import type { PublicConfig } from '../config';
import { withPlaceholders } from '../content/identity';

interface Props {
  config: PublicConfig | null;
  className?: string;
}

/** The orchestrator host's chatbot page in a frame, or why it cannot be shown. */
export function ChatFrame({ config, className }: Props) {
  if (config === null) {
    return (
      <p className="chat-frame__status" role="status">
        Carregando o chat…
      </p>
    );
  }
  if (!config.chatbotUrl) {
    const { contactEmail } = withPlaceholders(config.company);
    return (
      <p className="chat-frame__status" role="status" data-testid="chat-unavailable">
        O chat está indisponível no momento. Escreva para{' '}
        <a href={`mailto:${contactEmail}`}>{contactEmail}</a> que respondemos por e-mail.
      </p>
    );
  }
  return (
    <iframe
      className={className ?? 'chat-frame'}
      src={config.chatbotUrl}
      title="Chat de atendimento EXA"
      data-external-host="chatbot"
      allow="clipboard-write"
    />
  );
}
