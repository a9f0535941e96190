// Portuguese names for the console: the flows' steps and the visitor's panels, the abuse limits,
// actors, outcomes and personal-data fields (flows and variants are in lib/flows.ts). The
// machine name stays visible beside the label (support tickets quote it); an id with no
// label yet shows as it is. orchestrator/tests/support_labels.rs checks every step and panel
// the flows have is here.

import type { Outcome, OutcomeKind } from './api';
import labels from './labels.json';

const STEPS: Record<string, string> = labels.steps;
const PANELS: Record<string, string> = labels.panels;
const LIMITS: Record<string, string> = labels.limits;

export function stepLabel(name: string): string {
  return STEPS[name] ?? name;
}

export function panelLabel(name: string): string {
  return PANELS[name] ?? name;
}

/** The abuse limit that refused a visitor (`abuse.limited`'s rule, docs/abuse.md). */
export function limitLabel(rule: string): string {
  return LIMITS[rule] ?? rule;
}

const ACTOR_LABELS: Record<string, string> = {
  visitor: 'visitante',
  runner: 'executor',
  staff: 'equipe',
};

export const actorLabel = (actor: string) => ACTOR_LABELS[actor] ?? actor;

export const OUTCOME_OPTIONS: { value: OutcomeKind; label: string }[] = [
  { value: 'completed', label: 'Concluída' },
  { value: 'refused', label: 'Recusada' },
  { value: 'in_flight', label: 'Em andamento' },
  { value: 'abandoned', label: 'Abandonada' },
  { value: 'gave_up', label: 'Desistiu após tentativas' },
  { value: 'cancelled', label: 'Encerrada pelo atendimento' },
];

/**
 * The badge's text: "Abandonada em “Enviar o código por SMS” após 12 min",
 * "Desistiu após tentativas em “Autorizar a ativação”".
 */
export function outcomeLabel(outcome: Outcome): string {
  switch (outcome.kind) {
    case 'completed':
      return 'Concluída';
    case 'refused':
      return 'Recusada';
    case 'in_flight':
      return 'Em andamento';
    case 'abandoned': {
      const at = outcome.step ? ` em “${stepLabel(outcome.step)}”` : '';
      const after = typeof outcome.minutes === 'number' ? ` após ${outcome.minutes} min` : '';
      return `Abandonada${at}${after}`;
    }
    case 'gave_up':
      return outcome.step ? `Desistiu após tentativas em “${stepLabel(outcome.step)}”` : 'Desistiu após tentativas';
    case 'cancelled':
      return 'Encerrada pelo atendimento';
    default:
      return String((outcome as { kind: unknown }).kind);
  }
}

const FIELD_LABELS: Record<string, string> = {
  phone: 'Telefone',
  msisdn: 'Telefone',
  document: 'CPF/CNPJ',
  cpf_cnpj: 'CPF/CNPJ',
  cpf: 'CPF',
  cnpj: 'CNPJ',
  email: 'E-mail',
  serial: 'Serial',
  licence: 'Licença',
  license: 'Licença',
  name: 'Nome',
};

export const fieldLabel = (name: string) => FIELD_LABELS[name] ?? name;
