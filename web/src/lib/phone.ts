// How every flow reads a typed or pasted phone (issue 29): the country prefix and the trunk 0
// are recognised and dropped, the area code must exist. The same as events/src/flow/phone.rs;
// tests/vectors/phone/national.json holds both.

/** Brazil's area codes (DDDs) in use (Anatel's numbering plan). */
export const VALID_DDDS: readonly string[] = [
  '11', '12', '13', '14', '15', '16', '17', '18', '19',
  '21', '22', '24', '27', '28',
  '31', '32', '33', '34', '35', '37', '38',
  '41', '42', '43', '44', '45', '46', '47', '48', '49',
  '51', '53', '54', '55',
  '61', '62', '63', '64', '65', '66', '67', '68', '69',
  '71', '73', '74', '75', '77', '79',
  '81', '82', '83', '84', '85', '86', '87', '88', '89',
  '91', '92', '93', '94', '95', '96', '97', '98', '99',
];

export const NATIONAL_DIGITS = 11;
const SEPARATORS = ' ()-.+';

export type PhoneReading =
  | { kind: 'empty' }
  | { kind: 'incomplete' }
  | { kind: 'invalid' }
  | { kind: 'national'; digits: string };

/** The digits after a recognised prefix: `55`, `0055`, a trunk `0` or `0` + a carrier code. */
function dropPrefix(digits: string, plus: boolean): string | null {
  if (plus) {
    if (digits.length < 2) return digits.length === 0 || digits === '5' ? '' : null;
    return digits.startsWith('55') ? digits.slice(2) : null;
  }
  if (digits.length === 13 && digits.startsWith('55')) return digits.slice(2);
  if (digits.length === 15 && digits.startsWith('0055')) return digits.slice(4);
  if (digits.length === 12 && digits.startsWith('0')) return digits.slice(1);
  if (digits.length === 14 && digits.startsWith('0')) return digits.slice(3);
  return digits;
}

export function readPhone(input: string): PhoneReading {
  let digits = '';
  for (const c of input) {
    if (c >= '0' && c <= '9') digits += c;
    else if (!SEPARATORS.includes(c)) return { kind: 'invalid' };
  }
  if (digits === '') return { kind: 'empty' };
  const national = dropPrefix(digits, input.trim().startsWith('+'));
  if (national === null || national.length > NATIONAL_DIGITS) return { kind: 'invalid' };
  if (national.length < NATIONAL_DIGITS) return { kind: 'incomplete' };
  if (!VALID_DDDS.includes(national.slice(0, 2))) return { kind: 'invalid' };
  return { kind: 'national', digits: national };
}

/**
 * What the phone mask should receive for a pasted text: the national digits when the paste is
 * a whole number with a prefix (`+55 11 91000-0001`), else the text as it came, so the mask does
 * not read the country code as the area code.
 */
export function pastedPhone(text: string): string {
  const digits = text.replace(/\D/g, '');
  if (digits.length <= NATIONAL_DIGITS) return text;
  const reading = readPhone(text);
  return reading.kind === 'national' ? reading.digits : text;
}
