import type { ServerFeatureName } from "@keyhold/contract";
import { useSession } from "./use-session";

export interface FeatureState {
  available: boolean;
  /** Why it is unavailable, in one sentence; absent when available. */
  reason?: string | undefined;
}

/** Whether the secrets server supports a feature, as the BFF has seen it (present until disproved). */
export function useServerFeature(name: ServerFeatureName): FeatureState {
  const feature = useSession().server.features.find((f) => f.name === name);
  return feature ? { available: feature.available, reason: feature.reason } : { available: true };
}
