// The activation's form panels as commands: what the visitor typed, parsed on this side first
// with the spec's rules and messages (rules.ts), then sent; the server parses again.

import type { Built as AttemptBuilt, Command } from '../../lib/attempts/regions';
import { needsDocument, needsLicence, type Variant } from './chain';
import { TERMS_REQUIRED } from './texts';
import type { ActivationContext, Field } from './types';
import { parseCpfCnpj, parseEmail, parseLicence, parsePhone, parsePincode, type Parsed } from './rules';

/** A command to send, or the first field that keeps it from being sent, with its message. */
export type Built = AttemptBuilt<Command, Field>;

function firstError<T>(results: Parsed<T>[]): { error: string; field: Field } | null {
  for (const result of results) if ('error' in result) return result;
  return null;
}

/** The send-code panel: phone, and the CPF/CNPJ or the licence where the variant asks for them. */
export function phoneCommand(context: ActivationContext, variant: Variant): Built {
  const licence = context.licenceLocked ? (context.licence ?? '') : context.licenceInput;
  const checks: Parsed<unknown>[] = [parsePhone(context.phone)];
  if (needsDocument(variant)) checks.push(parseCpfCnpj(context.cpfCnpj));
  if (needsLicence(variant)) checks.push(parseLicence(licence));
  const wrong = firstError(checks);
  if (wrong) return wrong;
  const command: Command = { type: 'submit_phone', phone: context.phone };
  if (needsDocument(variant)) command.cpf_cnpj = context.cpfCnpj;
  // The tidied licence (no spaces), as the server would read it.
  const tidy = parseLicence(licence);
  if (needsLicence(variant) && 'ok' in tidy) command.licence = tidy.ok;
  return { command };
}

/** The e-mail panel (telecom): phone and e-mail. */
export function emailCommand(context: ActivationContext): Built {
  const wrong = firstError<unknown>([parsePhone(context.phone), parseEmail(context.email)]);
  if (wrong) return wrong;
  return { command: { type: 'submit_email', phone: context.phone, email: context.email } };
}

/** The code panel: the 6-digit code and the terms accepted. */
export function codeCommand(context: ActivationContext): Built {
  const pincode = parsePincode(context.pincode);
  if ('error' in pincode) return { error: pincode.error, field: pincode.field };
  if (!context.terms) return { error: TERMS_REQUIRED, field: 'terms' };
  return { command: { type: 'submit_code', pincode: pincode.ok, terms_accepted: true } };
}
