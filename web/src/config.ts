// Public runtime configuration served by the orchestrator at GET /api/public-config.
// It is fetched once per page load and shared; when the call fails the site still works,
// with the chatbot in its unavailable state and no sandbox links.

export interface PublicConfig {
  /** Absolute URL of the orchestrator host's chatbot page, ending with ?p=hero; null when unknown. */
  chatbotUrl: string | null;
  /** Avatar image served by the chatbot host; null when unknown. */
  chatbotAvatarUrl: string | null;
  /** True when the orchestrator plays the upstreams itself (development and tests). */
  sandbox: boolean;
  /** The sandbox's SMS inbox, only meaningful when sandbox is true. */
  smsInboxUrl: string | null;
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

/** Turns an untrusted JSON body into a config, dropping any field that has the wrong shape. */
export function parsePublicConfig(raw: unknown): PublicConfig {
  if (typeof raw !== 'object' || raw === null) return FALLBACK_CONFIG;
  const body = raw as Record<string, unknown>;
  return {
    chatbotUrl: httpUrlOrNull(body.chatbotUrl),
    chatbotAvatarUrl: httpUrlOrNull(body.chatbotAvatarUrl),
    sandbox: body.sandbox === true,
    smsInboxUrl: httpUrlOrNull(body.smsInboxUrl),
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
