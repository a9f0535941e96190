// Device dates in pt-BR (spec §9): last login 'DD de month, HH:MM', first login
// 'DD de mon de YYYY', in Brasília time.

const MONTHS = [
  'janeiro', 'fevereiro', 'março', 'abril', 'maio', 'junho',
  'julho', 'agosto', 'setembro', 'outubro', 'novembro', 'dezembro',
];
const SHORT_MONTHS = ['jan', 'fev', 'mar', 'abr', 'mai', 'jun', 'jul', 'ago', 'set', 'out', 'nov', 'dez'];

const PARTS = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'America/Sao_Paulo',
  year: 'numeric',
  month: 'numeric',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

interface Parts {
  day: string;
  month: number;
  year: string;
  hour: string;
  minute: string;
}

function parts(seconds: number): Parts {
  const found: Record<string, string> = {};
  for (const part of PARTS.formatToParts(new Date(seconds * 1000))) found[part.type] = part.value;
  return {
    day: found.day ?? '',
    month: Number(found.month ?? '1') - 1,
    year: found.year ?? '',
    hour: found.hour ?? '',
    minute: found.minute ?? '',
  };
}

/** 'DD de month, HH:MM', for example '05 de março, 09:00'. */
export function formatLastLogin(seconds: number): string {
  const p = parts(seconds);
  return `${p.day} de ${MONTHS[p.month]}, ${p.hour}:${p.minute}`;
}

/** 'DD de mon de YYYY', for example '14 de nov de 2023'. */
export function formatFirstLogin(seconds: number): string {
  const p = parts(seconds);
  return `${p.day} de ${SHORT_MONTHS[p.month]} de ${p.year}`;
}
