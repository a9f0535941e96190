// Public runtime configuration served by the orchestrator at GET /api/public-config.
// It is fetched once per page load and shared; when the call fails the site still works,
// with the chatbot in its unavailable state and no sandbox links.

import type { CompanyIdentity } from './content/identity';

export interface PublicConfig {
  /** Absolute URL of the orchestrator host's chatbot page, ending with ?p=hero; null when unknown. */
  chatbotUrl: string | null;
  /** Avatar image served by the chatbot host; null when unknown. */
  chatbotAvatarUrl: string | null;
  /** True when the orchestrator plays the upstreams itself (development and tests). */
  sandbox: boolean;
  /** The sandbox's SMS inbox, only meaningful when sandbox is true. */
  smsInboxUrl: string | null;
  /** The company's identity as the operator set it; absent when the server sent none. */
  company?: Partial<CompanyIdentity>;
}

export const FALLBACK_CONFIG: PublicConfig = {
  chatbotUrl: null,
  chatbotAvatarUrl: null,
  sandbox: false,
  smsInboxUrl: null,
};

export const PUBLIC_CONFIG_PATH = '/api/public-config';

function httpUrlOrNull(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0) return null;
  try {
    // Relative URLs are resolved against the page, so the server may send either form.
    const url = new URL(value, window.location.href);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null;
  } catch {
    return null;
  }
}

function textOrNull(value: unknown): string | null {
  return typeof value === 'string' && value.trim().length > 0 ? value.trim() : null;
}

/** Keeps the identity fields that have the right shape; the rest fall back to placeholders. */
function parseCompany(raw: unknown): Partial<CompanyIdentity> | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const body = raw as Record<string, unknown>;
  const company: Partial<CompanyIdentity> = {};
  for (const key of ['legalName', 'cnpj', 'contactEmail', 'pressEmail'] as const) {
    const value = textOrNull(body[key]);
    if (value) company[key] = value;
  }
  for (const key of ['supportPhone', 'supportWhatsapp'] as const) {
    const value = textOrNull(body[key]);
    if (value) company[key] = value;
  }
  const seal = httpUrlOrNull(body.ethicsSealUrl);
  if (seal) company.ethicsSealUrl = seal;
  if (Array.isArray(body.address)) {
    const lines = body.address.map(textOrNull).filter((line): line is string => line !== null);
    if (lines.length > 0) company.address = lines;
  }
  return company;
}

/** Turns an untrusted JSON body into a config, dropping any field that has the wrong shape. */
export function parsePublicConfig(raw: unknown): PublicConfig {
  if (typeof raw !== 'object' || raw === null) return FALLBACK_CONFIG;
  const body = raw as Record<string, unknown>;
  return {
    chatbotUrl: httpUrlOrNull(body.chatbotUrl),
    chatbotAvatarUrl: httpUrlOrNull(body.chatbotAvatarUrl),
    sandbox: body.sandbox === true,
    smsInboxUrl: httpUrlOrNull(body.smsInboxUrl),
    company: parseCompany(body.company),
  };
}

let pending: Promise<PublicConfig> | null = null;

/** Loads the config once; every caller shares the same promise. Never rejects. */
export function loadPublicConfig(fetchImpl: typeof fetch = fetch): Promise<PublicConfig> {
  if (!pending) {
    pending = fetchImpl(PUBLIC_CONFIG_PATH, { headers: { Accept: 'application/json' } })
      .then(async (response) => {
        const type = response.headers.get('content-type') ?? '';
        if (!response.ok || !type.includes('json')) return FALLBACK_CONFIG;
        return parsePublicConfig(await response.json());
      })
      .catch(() => FALLBACK_CONFIG);
  }
  return pending;
}

/** Test helper: forget the cached promise. */
export function resetPublicConfigCache(): void {
  pending = null;
}
