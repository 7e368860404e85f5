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

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      try {
        await authApi.signOut();
      } catch (error) {
        // Already signed out (the session expired) is the outcome we wanted.
        if (!isApiError(error, 401)) throw error;
      }
    },
    // Marking the session gone makes the signed-in layout send the user to sign in.
    onSuccess: () => {
      queryClient.setQueryData(sessionKeys.current(), null);
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionKeys.all[0] });
    },
  });
}
