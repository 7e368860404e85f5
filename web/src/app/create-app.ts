import { paths } from "@/config/paths";
import { createQueryClient } from "@/lib/query-client";
import { sessionKeys } from "@/lib/session";
import { createAppRouter } from "./router";

/**
 * Builds the query client and router together: a 401 from any request clears the
 * session and sends the user to sign in, returning to the current page afterwards.
 */
export function createApp() {
  const queryClient = createQueryClient({ onUnauthorized: () => sendToSignIn() });
  const router = createAppRouter(queryClient);

  function sendToSignIn() {
    queryClient.setQueryData(sessionKeys.current(), null);
    const { pathname, search } = router.state.location;
    if (pathname === paths.signIn.path) return;
    void router.navigate(paths.signIn.href(pathname + search), { replace: true });
  }

  return { queryClient, router };
}
