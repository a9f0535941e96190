// Writes the site's own PDFs (terms under public/assets, the /links documents under public/docs).
// Plain PDF 1.4 with the built-in Helvetica font, so no dependency is needed:
//   node scripts/make-pdfs.mjs
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const terms = JSON.parse(readFileSync(join(root, 'src/content/terms.json'), 'utf8'));

// A file cannot follow the operator's configuration: the PDFs carry the placeholders of
// src/content/identity.ts (legal name and CNPJ); rebuild them with the real values for production.
const LEGAL_NAME = process.env.COMPANY_LEGAL_NAME ?? 'EXA Tecnologia e Segurança Digital S.A.';
const CNPJ = process.env.COMPANY_CNPJ ?? '00.000.000/0001-00';
const COMPANY = `${LEGAL_NAME} - CNPJ ${CNPJ}`;
for (const section of terms.sections) {
  section.paragraphs = section.paragraphs.map((p) => p.replaceAll('{razaoSocial}', LEGAL_NAME).replaceAll('{cnpj}', CNPJ));
}

/** Latin-1 string literal for a PDF content stream (WinAnsiEncoding covers Portuguese). */
function pdfString(text) {
  let out = '(';
  for (const ch of text.replace(/[–—]/g, '-').replace(/[“”]/g, '"')) {
    const code = ch.charCodeAt(0);
    if (ch === '(' || ch === ')' || ch === '\\') out += `\\${ch}`;
    else if (code < 128) out += ch;
    else if (code < 256) out += `\\${code.toString(8).padStart(3, '0')}`;
    else out += '?';
  }
  return `${out})`;
}

function wrap(text, width) {
  const lines = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if ((line + ' ' + word).trim().length > width) {
      lines.push(line);
      line = word;
    } else {
      line = (line + ' ' + word).trim();
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** blocks: [{ kind: 'title'|'heading'|'text', text }] → PDF bytes, A4 pages. */
function buildPdf(blocks) {
  const pages = [];
  let ops = [];
  let y = 790;
  const newPage = () => {
    pages.push(ops);
    ops = [];
    y = 790;
  };
  for (const block of blocks) {
    const [font, size, width, gap] =
      block.kind === 'title' ? ['F2', 18, 48, 14] : block.kind === 'heading' ? ['F2', 13, 70, 8] : ['F1', 11, 90, 8];
    for (const line of wrap(block.text, width)) {
      if (y < 60) newPage();
      ops.push(`BT /${font} ${size} Tf 56 ${y} Td ${pdfString(line)} Tj ET`);
      y -= size + 4;
    }
    y -= gap;
  }
  pages.push(ops);

  const objects = [];
  const add = (body) => objects.push(body) - 1 + 1;
  const catalog = add('<< /Type /Catalog /Pages 2 0 R >>');
  add('PAGES');
  const f1 = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const f2 = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>');
  const kids = [];
  for (const pageOps of pages) {
    const stream = pageOps.join('\n');
    const content = add(`<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`);
    kids.push(
      add(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 ${f1} 0 R /F2 ${f2} 0 R >> >> /Contents ${content} 0 R >>`,
      ),
    );
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;

  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets = [];
  objects.forEach((body, index) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

function write(relative, blocks) {
  const file = join(root, 'public', relative);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, buildPdf(blocks));
  console.log(`wrote public/${relative}`);
}

const text = (t) => ({ kind: 'text', text: t });
const heading = (t) => ({ kind: 'heading', text: t });
const title = (t) => ({ kind: 'title', text: t });

write('assets/termos-de-uso-e-privacidade.pdf', [
  title('Termos de uso e Privacidade'),
  text(`Última atualização: ${terms.updatedAt}.`),
  ...terms.sections.flatMap((s) => [heading(s.title), ...s.paragraphs.map(text)]),
  text(COMPANY),
]);

write('docs/igualdade-salarial.pdf', [
  title('Relatório de Transparência e Igualdade Salarial'),
  text('Publicado conforme a Lei nº 14.611/2023 e o Decreto nº 11.795/2023.'),
  heading('Nosso compromisso'),
  text('Na EXA, pessoas na mesma função e com a mesma experiência recebem o mesmo salário, independentemente de gênero, raça ou idade. Revisamos a política de cargos e salários a cada semestre.'),
  heading('O que fazemos'),
  text('Critérios públicos de promoção, banca diversa nos processos seletivos, licença parental estendida e programa de mentoria para mulheres em tecnologia.'),
  heading('Onde saber mais'),
  text('O relatório completo do Ministério do Trabalho e Emprego fica disponível para consulta na área de Transparência do site da EXA.'),
  text(COMPANY),
]);

write('docs/nc-exa.pdf', [
  title('Nota de Compromisso EXA'),
  heading('Segurança em primeiro lugar'),
  text('Nenhum atendente da EXA pede senhas, códigos recebidos por SMS ou dados de cartão. Se alguém pedir, é golpe: desligue e fale com a gente pelo chat do site.'),
  heading('Privacidade'),
  text('Tratamos apenas os dados necessários para prestar o serviço e respeitamos todos os direitos previstos na LGPD.'),
  heading('Atendimento'),
  text('Respondemos pelo chat do site e pelo e-mail contato@exa.com.br. Dúvidas da imprensa: imprensa@exa.com.br.'),
  text(COMPANY),
]);

write('docs/anuncio-encerramento.pdf', [
  title('Anúncio de Encerramento do aplicativo Hero'),
  text('Agora o Hero é EXA Segurança!'),
  heading('O que muda'),
  text('O aplicativo Hero foi encerrado e deu lugar ao EXA Segurança, com os mesmos recursos: antivírus, proteção de aplicativos, navegador seguro, limpeza, economia de bateria, VPN e bloqueio de apps.'),
  heading('O que você precisa fazer'),
  text('Atualize o aplicativo pela loja do seu celular. Sua assinatura, seus dispositivos e suas licenças continuam válidos, sem nenhum custo adicional.'),
  heading('Precisa de ajuda?'),
  text('Fale com o nosso chat no site da EXA ou escreva para contato@exa.com.br.'),
  text(COMPANY),
]);
