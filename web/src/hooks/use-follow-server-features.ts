import { type BffSession, unavailableFeaturesStamp } from "@keyhold/contract";
import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { listenForServerFeatures } from "@/lib/api-client";
import { sessionKeys } from "@/lib/session";

/**
 * For every answer's `keyhold-unavailable-features`: when it names other features than the
 * session does (the BFF learns them from answers, after the session was read), the session is
 * read again, so a form stops offering what the server would drop.
 */
export function refreshSessionOnFeatureChange(queryClient: QueryClient) {
  return (stamp: string) => {
    const session = queryClient.getQueryData<BffSession | null>(sessionKeys.current());
    if (session && unavailableFeaturesStamp(session.server.features) !== stamp) {
      void queryClient.invalidateQueries({ queryKey: sessionKeys.current() });
    }
  };
}

/** Keeps the session's view of the server current while someone is signed in. */
export function useFollowServerFeatures(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    listenForServerFeatures(refreshSessionOnFeatureChange(queryClient));
    return () => listenForServerFeatures(undefined);
  }, [queryClient]);
}
