// The cloud's forms as commands: what the visitor typed, parsed on this side first with the
// spec's rules and messages (rules.ts), then sent; the server parses again.

import type { Built } from '../../lib/attempts/regions';
import { parseCode, parsePhone, parseSerial } from './rules';
import type { CloudCommand, CloudContext, Field } from './types';

type CloudBuilt = Built<CloudCommand, Field>;

/** Form 1: the phone, then the serial; the first command starts the attempt. */
export function detailsCommand(context: CloudContext): CloudBuilt {
  const phone = parsePhone(context.phone);
  if ('error' in phone) return { error: phone.error, field: 'phone' };
  const serial = parseSerial(context.serial);
  if ('error' in serial) return { error: serial.error, field: 'serial' };
  return {
    command: { type: context.attemptId ? 'submit_details' : 'start', phone: context.phone, serial: serial.ok },
  };
}

/** Form 2: the 6-digit code. */
export function codeCommand(context: CloudContext): CloudBuilt {
  const code = parseCode(context.code);
  if ('error' in code) return { error: code.error, field: 'code' };
  return { command: { type: 'submit_code', code: context.code.trim() } };
}
