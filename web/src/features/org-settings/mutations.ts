import { useMutation, useQueryClient } from "@tanstack/react-query";
import { auditSettingsApi, type CreateStreamBody, type StreamRef, streamsApi, type UpdateStreamBody } from "./api";
import { auditSettingsKeys } from "./queries";

/*
 * Each hook owns the cache work for its change and returns the invalidation promise, so a pending
 * dialog or form stays pending until fresh data is in place. Toasts and closing dialogs belong to
 * the call site. A stream's change refreshes both the list and the delivery state.
 */

function useInvalidateStreams() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: auditSettingsKeys.streams() });
}

export function useUpdateOrgRetention() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (days: number) => auditSettingsApi.updateRetention(days),
    onSuccess: (days) => queryClient.setQueryData(auditSettingsKeys.retention(), days),
  });
}

/** A walk of the chain on demand: its answer is the outcome shown, not a cached read. */
export function useVerifyChain() {
  return useMutation({ mutationFn: () => auditSettingsApi.verify() });
}

export function useCreateStream() {
  const invalidate = useInvalidateStreams();
  return useMutation({
    mutationFn: ({ provider, body }: { provider: string; body: CreateStreamBody }) => streamsApi.create(provider, body),
    onSuccess: () => invalidate(),
  });
}

export function useUpdateStream() {
  const invalidate = useInvalidateStreams();
  return useMutation({
    mutationFn: ({ ref, body }: { ref: StreamRef; body: UpdateStreamBody }) => streamsApi.update(ref, body),
    onSuccess: () => invalidate(),
  });
}

export function useDeleteStream() {
  const invalidate = useInvalidateStreams();
  return useMutation({
    mutationFn: (ref: StreamRef) => streamsApi.delete(ref),
    onSuccess: () => invalidate(),
  });
}

/** One test event now; the delivery state is read again for what it did. */
export function useTestStream() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ref: StreamRef) => streamsApi.test(ref),
    onSettled: () => queryClient.invalidateQueries({ queryKey: auditSettingsKeys.streamStatus() }),
  });
}
