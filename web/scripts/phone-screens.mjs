// Draws the feature illustrations of /seguranca, /cloud and /gestao: the EXA app's own screens
// on a phone, with Portuguese UI text (our own drawings, no third-party art). Writes
// public/img/{feature,cloud,gestao}-*.svg; run `node scripts/phone-screens.mjs` after a change.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const NAVY = '#0b1f4b';
const TEAL = '#19c3a6';
const TEAL_DARK = '#0a6b5c';
const INK = '#14213d';
const MUTED = '#5a6577';
const LINE = '#d9e0ea';
const RED = '#c62828';
const AMBER = '#f4a300';
const FONT = "font-family=\"Arial, 'Liberation Sans', Helvetica, sans-serif\"";

const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const text = (x, y, s, { size = 9, weight = 400, fill = INK, anchor = 'start' } = {}) =>
  `<text x="${x}" y="${y}" font-size="${size}" font-weight="${weight}" fill="${fill}" text-anchor="${anchor}">${esc(s)}</text>`;
const check = (x, y, r = 7, bg = TEAL, fg = NAVY) =>
  `<circle cx="${x}" cy="${y}" r="${r}" fill="${bg}"/><path d="M${x - r * 0.45} ${y + r * 0.02}l${r * 0.3} ${r * 0.3} ${r * 0.55}-${r * 0.6}" fill="none" stroke="${fg}" stroke-width="${r * 0.28}" stroke-linecap="round" stroke-linejoin="round"/>`;
const pill = (x, y, w, h, label, { fill = TEAL, color = NAVY, size = 8.5 } = {}) =>
  `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${h / 2}" fill="${fill}"/>` +
  text(x + w / 2, y + h / 2 + size * 0.36, label, { size, weight: 700, fill: color, anchor: 'middle' });
const toggle = (x, y, on = true) =>
  `<rect x="${x}" y="${y}" width="20" height="11" rx="5.5" fill="${on ? TEAL : '#c3ccd8'}"/><circle cx="${on ? x + 14.5 : x + 5.5}" cy="${y + 5.5}" r="4" fill="#fff"/>`;
const shield = (cx, cy, s, fill = TEAL) =>
  `<path transform="translate(${cx - 12 * s} ${cy - 14.5 * s}) scale(${s})" d="M12 0l12 4.7v8.6C24 21.4 18.6 26.7 12 29 5.4 26.7 0 21.4 0 13.3V4.7z" fill="${fill}"/>`;

// The phone: 136 × 228 at (x, 6); the screen starts at (x + 7, 14), 122 wide.
const SX = 99; // screen's left edge
const SW = 122;
function phone(title, body, { backdrop = '#e6f7f4', extra = '' } = {}) {
  const x = SX - 7;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 320 240" width="320" height="240" ${FONT}>
<title>${esc(title)}</title>
<rect width="320" height="240" rx="24" fill="${backdrop}"/>
<circle cx="52" cy="62" r="30" fill="#fff" opacity=".55"/><circle cx="276" cy="190" r="38" fill="#fff" opacity=".55"/>
<rect x="${x}" y="6" width="136" height="232" rx="22" fill="${NAVY}"/>
<rect x="${SX}" y="14" width="${SW}" height="216" rx="15" fill="#fff"/>
<rect x="${SX + 45}" y="17" width="32" height="6" rx="3" fill="${NAVY}"/>
${text(SX + 10, 24, '9:41', { size: 7, weight: 700 })}
<rect x="${SX + 102}" y="18.5" width="11" height="6" rx="1.5" fill="none" stroke="${INK}" stroke-width="1"/><rect x="${SX + 103.5}" y="20" width="7" height="3" fill="${INK}"/>
${body}
${extra}
</svg>
`;
}
// The app's bar under the status line: our shield and the screen's name.
const appBar = (name) =>
  `<rect x="${SX}" y="30" width="${SW}" height="22" fill="${NAVY}"/>${shield(SX + 12, 41, 0.42)}` +
  text(SX + 22, 44.5, name, { size: 8.5, weight: 700, fill: '#fff' });
// A floating card beside the phone, in larger type.
const card = (x, y, w, lines, icon = '') =>
  `<g><rect x="${x}" y="${y}" width="${w}" height="${14 + lines.length * 13}" rx="10" fill="#fff" stroke="${LINE}"/>` +
  `<rect x="${x}" y="${y}" width="${w}" height="${14 + lines.length * 13}" rx="10" fill="none" stroke="${NAVY}" stroke-opacity=".08" stroke-width="4"/>` +
  icon +
  lines.map((l, i) => text(x + (icon ? 26 : 10), y + 17 + i * 13, l.t, { size: l.size ?? 9.5, weight: l.w ?? 400, fill: l.c ?? INK })).join('') +
  '</g>';

const screens = {
  'feature-antivirus': phone(
    'Tela do EXA Segurança: celular protegido, análise concluída',
    appBar('Antivírus') +
      `<circle cx="160" cy="88" r="26" fill="#e6f7f4"/>${shield(160, 88, 1.25)}<path d="M151 88.5l6 6 11-12" fill="none" stroke="${NAVY}" stroke-width="3.2" stroke-linecap="round" stroke-linejoin="round"/>` +
      text(160, 130, 'Seu celular está', { size: 9.5, weight: 700, anchor: 'middle' }) +
      text(160, 142, 'protegido', { size: 9.5, weight: 700, anchor: 'middle' }) +
      text(160, 156, 'Última análise: hoje, 9:40', { size: 7.5, fill: MUTED, anchor: 'middle' }) +
      `<rect x="${SX + 10}" y="166" width="102" height="24" rx="6" fill="#f1f6fb"/>` +
      text(SX + 16, 176, '128 apps analisados', { size: 7.5, weight: 700 }) +
      text(SX + 16, 185, '0 ameaças encontradas', { size: 7.5, fill: TEAL_DARK }) +
      pill(SX + 14, 200, 94, 20, 'Analisar agora'),
    {
      extra: card(234, 34, 80, [{ t: 'Ameaça', w: 700 }, { t: 'bloqueada', w: 700 }], `<circle cx="${234 + 13}" cy="52" r="8" fill="${RED}"/><path d="M243 48l8 8M251 48l-8 8" stroke="#fff" stroke-width="2" stroke-linecap="round"/>`),
    },
  ),
  'feature-apps': phone(
    'Tela do EXA Segurança: aplicativos protegidos por senha',
    appBar('Proteção de apps') +
      text(SX + 8, 66, 'Peça a senha ao abrir:', { size: 7.5, fill: MUTED }) +
      [
        ['Banco', '#1d4ed8'],
        ['Mensagens', '#16a34a'],
        ['Galeria', '#f59e0b'],
        ['E-mail', '#7c3aed'],
      ]
        .map(([name, color], i) => {
          const y = 74 + i * 27;
          return `<rect x="${SX + 8}" y="${y}" width="17" height="17" rx="4" fill="${color}"/>` +
            text(SX + 31, y + 11.5, name, { size: 8.5, weight: 700 }) + toggle(SX + 92, y + 3, i !== 3);
        })
        .join('') +
      `<line x1="${SX + 8}" y1="186" x2="${SX + 114}" y2="186" stroke="${LINE}"/>` +
      text(SX + 8, 200, '3 apps com senha', { size: 7.5, fill: TEAL_DARK, weight: 700 }) +
      text(SX + 8, 212, 'Alguém pegou seu celular?', { size: 7, fill: MUTED }) +
      text(SX + 8, 221, 'Eles continuam fechados.', { size: 7, fill: MUTED }),
    {
      extra: card(10, 150, 76, [{ t: 'Digite sua', size: 8.5 }, { t: 'senha', size: 8.5, w: 700 }]) +
        `<g fill="${NAVY}"><circle cx="22" cy="190" r="3"/><circle cx="32" cy="190" r="3"/><circle cx="42" cy="190" r="3"/><circle cx="52" cy="190" r="3" fill="${LINE}"/></g>`,
    },
  ),
  'feature-browser': phone(
    'Tela do EXA Segurança: o navegador seguro bloqueia um site falso',
    `<rect x="${SX + 6}" y="32" width="110" height="16" rx="8" fill="#f1f6fb" stroke="${LINE}"/>` +
      `<path d="M${SX + 13} 43v-3.5a2.5 2.5 0 0 1 5 0V43" fill="none" stroke="${RED}" stroke-width="1.4"/><rect x="${SX + 12}" y="41" width="7" height="5" rx="1" fill="${RED}"/>` +
      text(SX + 23, 43.5, 'banco-premio.com', { size: 7.5, fill: RED }) +
      `<rect x="${SX + 6}" y="56" width="110" height="132" rx="8" fill="#fdecec"/>` +
      `<path d="M160 66l16 28h-32z" fill="${RED}"/><rect x="159" y="75" width="2.4" height="10" rx="1" fill="#fff"/><circle cx="160.2" cy="89" r="1.5" fill="#fff"/>` +
      text(160, 110, 'Site perigoso', { size: 10, weight: 700, fill: '#8a1414', anchor: 'middle' }) +
      text(160, 123, 'bloqueado', { size: 10, weight: 700, fill: '#8a1414', anchor: 'middle' }) +
      text(160, 139, 'Esta página imita um banco', { size: 7, fill: INK, anchor: 'middle' }) +
      text(160, 149, 'para roubar sua senha.', { size: 7, fill: INK, anchor: 'middle' }) +
      pill(SX + 16, 160, 90, 19, 'Voltar com segurança', { fill: NAVY, color: '#fff', size: 7.5 }) +
      text(160, 205, 'Navegação protegida', { size: 7.5, fill: TEAL_DARK, weight: 700, anchor: 'middle' }) +
      text(160, 216, 'pelo EXA Segurança', { size: 7.5, fill: MUTED, anchor: 'middle' }),
    { backdrop: '#fff4e5' },
  ),
  'feature-cleanup': phone(
    'Tela do EXA Segurança: limpeza de arquivos e economia de bateria',
    appBar('Limpeza') +
      `<circle cx="160" cy="92" r="28" fill="none" stroke="#e6edf5" stroke-width="8"/>` +
      `<circle cx="160" cy="92" r="28" fill="none" stroke="${TEAL}" stroke-width="8" stroke-dasharray="123 176" transform="rotate(-90 160 92)" stroke-linecap="round"/>` +
      text(160, 92, '2,4 GB', { size: 11, weight: 700, anchor: 'middle' }) +
      text(160, 103, 'liberados', { size: 7, fill: MUTED, anchor: 'middle' }) +
      [
        ['Temporários', '1,1 GB'],
        ['Fotos repetidas', '860 MB'],
        ['Apps sem uso', '450 MB'],
      ]
        .map(([label, size], i) => {
          const y = 134 + i * 17;
          return check(SX + 13, y - 3, 4.5) + text(SX + 21, y, label, { size: 7.5 }) + text(SX + 114, y, size, { size: 7.5, weight: 700, anchor: 'end' });
        })
        .join('') +
      pill(SX + 14, 196, 94, 20, 'Liberar espaço'),
    {
      extra: card(234, 150, 80, [{ t: 'Bateria', size: 8.5 }, { t: '+2 h de uso', w: 700, c: TEAL_DARK }]) +
        `<rect x="246" y="196" width="50" height="20" rx="4" fill="#fff" stroke="${NAVY}" stroke-width="2"/><rect x="296" y="202" width="4" height="8" rx="1" fill="${NAVY}"/><rect x="250" y="200" width="38" height="12" rx="2" fill="${TEAL}"/>`,
    },
  ),
  'feature-vpn': phone(
    'Tela do EXA Segurança: VPN ativada e conexão protegida',
    appBar('VPN') +
      `<circle cx="160" cy="96" r="30" fill="#e6f7f4"/><circle cx="160" cy="96" r="21" fill="${TEAL}"/>` +
      `<path d="M160 84v11" stroke="${NAVY}" stroke-width="3" stroke-linecap="round"/><path d="M152.5 88.5a10.5 10.5 0 1 0 15 0" fill="none" stroke="${NAVY}" stroke-width="3" stroke-linecap="round"/>` +
      text(160, 142, 'VPN ativada', { size: 10, weight: 700, anchor: 'middle' }) +
      text(160, 154, 'Conexão protegida', { size: 7.5, fill: TEAL_DARK, weight: 700, anchor: 'middle' }) +
      `<rect x="${SX + 8}" y="164" width="106" height="22" rx="6" fill="#f1f6fb"/>` +
      text(SX + 14, 178, 'Wi-Fi: Café Centro', { size: 7.5 }) + check(SX + 104, 175, 4.5) +
      `<rect x="${SX + 8}" y="192" width="106" height="22" rx="6" fill="#f1f6fb"/>` +
      text(SX + 14, 206, 'Local: São Paulo, BR', { size: 7.5 }) + toggle(SX + 90, 197.5, true),
    {
      extra: card(8, 34, 78, [{ t: 'Wi-Fi público', size: 8.5 }, { t: 'seguro', w: 700 }]),
    },
  ),
  'cloud-photos': phone(
    'Tela do EXA Cloud: backup das fotos concluído',
    appBar('EXA Cloud') +
      text(SX + 8, 66, 'Fotos e vídeos', { size: 9, weight: 700 }) +
      Array.from({ length: 9 }, (_, i) => {
        const col = i % 3;
        const row = Math.floor(i / 3);
        const x = SX + 8 + col * 36;
        const y = 74 + row * 36;
        const hues = ['#9fd8ff', '#ffd9a0', '#b8ecd9', '#f7c1cf', '#c9d6f0', '#ffe7a3', '#b8ecd9', '#9fd8ff', '#f7c1cf'];
        return `<rect x="${x}" y="${y}" width="33" height="33" rx="4" fill="${hues[i]}"/><path d="M${x + 3} ${y + 29}l9-11 7 7 5-5 7 9z" fill="#fff" opacity=".8"/><circle cx="${x + 24}" cy="${y + 9}" r="3.5" fill="#fff" opacity=".9"/>`;
      }).join('') +
      check(SX + 14, 196, 5) + text(SX + 24, 199, 'Backup concluído', { size: 8, weight: 700 }) +
      text(SX + 24, 211, '1.248 fotos na nuvem', { size: 7.5, fill: MUTED }),
    { backdrop: '#e8f4ff' },
  ),
  'cloud-music': phone(
    'Tela do EXA Cloud: playlist baixada para ouvir offline',
    appBar('Músicas') +
      `<rect x="${SX + 8}" y="60" width="40" height="40" rx="6" fill="${NAVY}"/><path d="M${SX + 24} 90v-18l12-3v17" fill="none" stroke="${TEAL}" stroke-width="2.5" stroke-linejoin="round"/><circle cx="${SX + 21}" cy="90" r="3.5" fill="${TEAL}"/><circle cx="${SX + 33}" cy="87" r="3.5" fill="${TEAL}"/>` +
      text(SX + 54, 73, 'Viagem de férias', { size: 8, weight: 700 }) +
      text(SX + 54, 84, '24 músicas', { size: 7.5, fill: MUTED }) +
      text(SX + 54, 95, 'Disponível offline', { size: 7, fill: TEAL_DARK, weight: 700 }) +
      ['Manhã na praia', 'Estrada aberta', 'Pôr do sol', 'Volta para casa']
        .map((song, i) => {
          const y = 118 + i * 19;
          return text(SX + 10, y, song, { size: 8, weight: i === 0 ? 700 : 400, fill: i === 0 ? TEAL_DARK : INK }) +
            `<path d="M${SX + 108} ${y - 6}v6m-3-3l3 3 3-3" fill="none" stroke="${TEAL_DARK}" stroke-width="1.4" stroke-linecap="round"/>`;
        })
        .join('') +
      `<rect x="${SX}" y="196" width="${SW}" height="34" fill="#f1f6fb"/>` +
      `<circle cx="160" cy="212" r="10" fill="${TEAL}"/><path d="M157 207v10l8-5z" fill="${NAVY}"/>` +
      `<path d="M136 207v10l-7-5zM184 207v10l7-5z" fill="${NAVY}"/>`,
    { backdrop: '#e8f4ff' },
  ),
  'cloud-share': phone(
    'Tela do EXA Cloud: compartilhar um álbum por link, e-mail ou rede social',
    appBar('EXA Cloud') +
      `<rect x="${SX + 8}" y="60" width="106" height="58" rx="6" fill="#ffd9a0"/><path d="M${SX + 12} 114l26-28 18 18 12-12 20 22z" fill="#fff" opacity=".8"/>` +
      text(SX + 8, 132, 'Álbum: Aniversário da vó', { size: 8, weight: 700 }) +
      `<rect x="${SX}" y="142" width="${SW}" height="88" rx="12" fill="#f1f6fb"/>` +
      text(160, 158, 'Compartilhar', { size: 8.5, weight: 700, anchor: 'middle' }) +
      [
        ['Link', NAVY],
        ['E-mail', '#1d4ed8'],
        ['Redes', '#16a34a'],
      ]
        .map(([label, color], i) => {
          const cx = SX + 24 + i * 37;
          return `<circle cx="${cx}" cy="178" r="12" fill="${color}"/>` + text(cx, 202, label, { size: 7.5, anchor: 'middle' });
        })
        .join('') +
      `<path d="M${SX + 19} 178h10m-3-3 3 3-3 3" stroke="#fff" stroke-width="1.8" fill="none" stroke-linecap="round"/>` +
      `<rect x="${SX + 54}" y="172.5" width="14" height="11" rx="1.5" fill="none" stroke="#fff" stroke-width="1.5"/><path d="M${SX + 54} 173l7 6 7-6" fill="none" stroke="#fff" stroke-width="1.5"/>` +
      `<circle cx="${SX + 92}" cy="174" r="2.3" fill="#fff"/><circle cx="${SX + 102}" cy="178" r="2.3" fill="#fff"/><circle cx="${SX + 92}" cy="182" r="2.3" fill="#fff"/>` +
      text(160, 220, 'Quem tem o link vê as fotos', { size: 6.8, fill: MUTED, anchor: 'middle' }),
    { backdrop: '#e8f4ff' },
  ),
};

// The family-management screens share one map.
const map = (extra) =>
  `<rect x="${SX}" y="52" width="${SW}" height="120" fill="#eef3e6"/>` +
  `<path d="M${SX} 92h${SW}M${SX} 140h${SW}M${SX + 40} 52v120M${SX + 88} 52v120" stroke="#fff" stroke-width="7"/>` +
  `<path d="M${SX} 120l40-30 50 20 32-24" stroke="#fff" stroke-width="4" fill="none"/>` +
  `<rect x="${SX + 50}" y="100" width="28" height="22" rx="3" fill="#d6e4c4"/><rect x="${SX + 6}" y="58" width="26" height="26" rx="3" fill="#cfe3f7"/>` +
  extra;
const pin = (x, y, initial, color) =>
  `<path d="M${x} ${y + 14}c-6-8-9-12-9-16a9 9 0 0 1 18 0c0 4-3 8-9 16z" fill="${color}"/><circle cx="${x}" cy="${y - 2}" r="6" fill="#fff"/>` +
  text(x, y + 1, initial, { size: 7.5, weight: 700, fill: color, anchor: 'middle' });
Object.assign(screens, {
  'gestao-location': phone(
    'Tela do EXA Gestão: mapa com a localização da família',
    appBar('Minha família') +
      map(pin(SX + 30, 104, 'A', '#7c3aed') + pin(SX + 96, 78, 'P', '#1d4ed8') + pin(SX + 70, 150, 'M', RED)) +
      [
        ['Ana', 'Escola · agora', '#7c3aed'],
        ['Pedro', 'Casa · há 5 min', '#1d4ed8'],
        ['Mãe', 'Trabalho · agora', RED],
      ]
        .map(([name, where, color], i) => {
          const y = 184 + i * 15;
          return `<circle cx="${SX + 12}" cy="${y}" r="5" fill="${color}"/>` + text(SX + 22, y + 3, name, { size: 8, weight: 700 }) +
            text(SX + 114, y + 3, where, { size: 7, fill: MUTED, anchor: 'end' });
        })
        .join(''),
    { backdrop: '#f1ecfb' },
  ),
  'gestao-areas': phone(
    'Tela do EXA Gestão: área favorita com aviso de chegada e saída',
    appBar('Áreas favoritas') +
      map(`<circle cx="${SX + 64}" cy="110" r="34" fill="${TEAL}" fill-opacity=".22" stroke="${TEAL_DARK}" stroke-width="1.5" stroke-dasharray="4 3"/>` + pin(SX + 64, 108, 'A', '#7c3aed')) +
      text(SX + 8, 188, 'Escola', { size: 9, weight: 700 }) +
      text(SX + 8, 199, 'Raio de 300 m', { size: 7.5, fill: MUTED }) +
      text(SX + 8, 216, 'Avisar chegada e saída', { size: 7.5 }) + toggle(SX + 94, 208, true),
    {
      backdrop: '#f1ecfb',
      extra: card(234, 30, 82, [{ t: 'Ana chegou', w: 700, size: 9 }, { t: 'na Escola, 7:12', size: 8.5, c: MUTED }]),
    },
  ),
  'gestao-help': phone(
    'Tela do EXA Gestão: botão de pedir ajuda que avisa a família',
    appBar('Pedir ajuda') +
      `<circle cx="160" cy="104" r="38" fill="#fdecec"/><circle cx="160" cy="104" r="28" fill="${RED}"/>` +
      text(160, 102, 'PEDIR', { size: 9, weight: 700, fill: '#fff', anchor: 'middle' }) +
      text(160, 113, 'AJUDA', { size: 9, weight: 700, fill: '#fff', anchor: 'middle' }) +
      text(160, 156, 'Toque e segure por 3 s', { size: 7.5, fill: MUTED, anchor: 'middle' }) +
      `<rect x="${SX + 8}" y="166" width="106" height="50" rx="6" fill="#f1f6fb"/>` +
      text(SX + 14, 180, 'Avisaremos:', { size: 7.5, weight: 700 }) +
      text(SX + 14, 193, 'Mãe, Pedro e Ana', { size: 7.5 }) +
      text(SX + 14, 206, 'com a sua localização', { size: 7.5, fill: MUTED }),
    {
      backdrop: '#fff4e5',
      extra: card(230, 160, 86, [{ t: 'Alerta enviado', w: 700, size: 8 }, { t: 'a 3 contatos', size: 8.5, c: MUTED }], `<circle cx="243" cy="178" r="7" fill="${AMBER}"/>`),
    },
  ),
});

const out = new URL('../public/img/', import.meta.url);
for (const [name, svg] of Object.entries(screens)) {
  writeFileSync(new URL(`${name}.svg`, out), svg.replace(/\n+/g, '\n'));
}
console.log(`wrote ${Object.keys(screens).length} screens to ${fileURLToPath(out)}`);
