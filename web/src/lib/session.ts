import { BffSessionSchema, bffPaths } from "@keyhold/contract";
import { queryOptions } from "@tanstack/react-query";
import { isApiError } from "./api-error";
import { request } from "./api-client";

export const sessionKeys = {
  all: ["session"] as const,
  current: () => [...sessionKeys.all, "current"] as const,
};

/** Who is signed in, or `null` when nobody is (the BFF answers 401). */
export async function fetchSession(signal?: AbortSignal) {
  try {
    return await request({ method: "GET", url: bffPaths.session, schema: BffSessionSchema, signal });
  } catch (error) {
    if (isApiError(error, 401)) return null;
    throw error;
  }
}

export const sessionQueries = {
  current: () =>
    queryOptions({
      queryKey: sessionKeys.current(),
      queryFn: ({ signal }) => fetchSession(signal),
      // The session changes only on sign-in and sign-out, which write the cache directly;
      // an expired session shows up as a 401 from any API call.
      staleTime: Number.POSITIVE_INFINITY,
      retry: false,
    }),
};
