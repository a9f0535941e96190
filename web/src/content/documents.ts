// The documents shown by /links?q=<key>. Each key embeds a different PDF of ours.

export interface LinkedDocument {
  key: string;
  title: string;
  file: string;
  description: string;
}

export const LINKED_DOCUMENTS: readonly LinkedDocument[] = [
  {
    key: 'igualdade-salarial',
    title: 'Relatório de Transparência e Igualdade Salarial',
    file: '/docs/igualdade-salarial.pdf',
    description:
      'Relatório semestral de transparência salarial entre mulheres e homens, publicado conforme a Lei nº 14.611/2023.',
  },
  {
    key: 'nc-exa',
    title: 'Nota de Compromisso EXA',
    file: '/docs/nc-exa.pdf',
    description: 'Nossos compromissos com a segurança, a privacidade e o atendimento de quem usa a EXA.',
  },
  {
    key: 'anuncio-encerramento',
    title: 'Anúncio de Encerramento do aplicativo Hero',
    file: '/docs/anuncio-encerramento.pdf',
    description: 'O aplicativo Hero foi encerrado e agora é EXA Segurança. Veja prazos e o que muda para você.',
  },
];

export function findDocument(key: string | null): LinkedDocument | undefined {
  return LINKED_DOCUMENTS.find((doc) => doc.key === key);
}
