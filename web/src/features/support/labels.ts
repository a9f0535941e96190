// Portuguese names of the flows' steps and of the visitor's panels, for the console. The
// machine name stays visible beside the label (support tickets quote it); an id with no
// label yet shows as it is. orchestrator/tests/support_labels.rs checks every step and panel
// the flows have is here.

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
