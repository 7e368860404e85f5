import type { BffLoginBody } from "@keyhold/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { isApiError } from "@/lib/api-error";
import { sessionKeys } from "@/lib/session";
import { authApi } from "./api";

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BffLoginBody) => authApi.signIn(body),
    // The variables hold the token: drop the mutation from the cache as soon as it settles.
    gcTime: 0,
    onSuccess: (session) => {
      // Data cached for someone else must not leak into this session.
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionKeys.all[0] });
      queryClient.setQueryData(sessionKeys.current(), session);
    },
  });
}

/**
 * Ends the session. Resolves with the provider's end-session URL when the session came from single
 * sign-on and the provider signs people out too: the caller sends the browser there.
 */
export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (): Promise<string | undefined> => {
      try {
        return await authApi.signOut();
      } catch (error) {
        // Already signed out (the session expired) is the outcome we wanted.
        if (!isApiError(error, 401)) throw error;
        return undefined;
      }
    },
    onSuccess: (endSessionUrl) => {
      // Leaving for the provider: this document goes away with everything it holds, and the
      // console would only flash its sign-in page (and read data again) on the way out.
      if (endSessionUrl !== undefined) return;
      // Marking the session gone makes the signed-in layout send the user to sign in.
      queryClient.setQueryData(sessionKeys.current(), null);
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionKeys.all[0] });
    },
  });
}
