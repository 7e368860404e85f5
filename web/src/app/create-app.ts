import { createQueryClient } from "@/lib/query-client";
import { sessionKeys } from "@/lib/session";
import { createAppRouter } from "./router";

/**
 * Builds the query client and router. A 401 from any request marks the session as
 * gone; the signed-in layout then sends the user to sign in and back afterwards.
 */
export function createApp() {
  const queryClient = createQueryClient({
    onUnauthorized: () => queryClient.setQueryData(sessionKeys.current(), null),
  });
  const router = createAppRouter(queryClient);
  return { queryClient, router };
}
