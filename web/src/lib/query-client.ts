import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { ApiError, isApiError } from "./api-error";
import { toast } from "./toast";

interface QueryClientHandlers {
  /** Any request answered 401: the session is gone. */
  onUnauthorized: () => void;
}

/** Client errors (4xx) will not change on a retry; network and server errors might. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

export function createQueryClient({ onUnauthorized }: QueryClientHandlers): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (isApiError(error, 401)) return onUnauthorized();
        // Pages show first-load errors themselves; only a failed background refresh,
        // where stale data stays on screen, needs a toast. A query whose every reading
        // shows its own error (the counts before a delete) needs none.
        if (query.state.data !== undefined && !query.meta?.errorShownInPlace) {
          toast.error("Could not refresh data", error.message);
        }
      },
    }),
    mutationCache: new MutationCache({
      onError: (error) => {
        if (isApiError(error, 401)) onUnauthorized();
      },
    }),
    defaultOptions: {
      queries: { staleTime: 30_000, retry: shouldRetry, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
