import { useEffect, useState } from 'react';
import { loadPublicConfig, type PublicConfig } from '../config';
import { withPlaceholders, type CompanyIdentity } from '../content/identity';

/** The public config, or null while it is still loading. */
export function usePublicConfig(): PublicConfig | null {
  const [config, setConfig] = useState<PublicConfig | null>(null);
  useEffect(() => {
    let live = true;
    void loadPublicConfig().then((loaded) => {
      if (live) setConfig(loaded);
    });
    return () => {
      live = false;
    };
  }, []);
  return config;
}

/** The company's identity: the operator's values once the config has loaded, placeholders before. */
export function useIdentity(): CompanyIdentity {
  return withPlaceholders(usePublicConfig()?.company);
}
