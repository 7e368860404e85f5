import { BffSessionSchema, bffPaths } from "@keyhold/contract";
import { queryOptions } from "@tanstack/react-query";
import { isApiError } from "./api-error";
import { request } from "./api-client";

export const sessionKeys = {
  all: ["session"] as const,
  current: () => [...sessionKeys.all, "current"] as const,
};

declare global {
  interface Window {
    /** The session check index.html's boot script (web/boot.js) starts before the app's code has loaded. */
    keyholdSessionCheck?: Promise<Response> | undefined;
  }
}

/** The early session check, for the first caller only: later checks must ask the server again. */
function takeEarlySessionCheck(): Promise<Response> | undefined {
  const early = window.keyholdSessionCheck;
  window.keyholdSessionCheck = undefined;
  return early;
}

/** Who is signed in, or `null` when nobody is (the BFF answers 401). */
export async function fetchSession(signal?: AbortSignal) {
  try {
    const sent = takeEarlySessionCheck();
    return await request({ method: "GET", url: bffPaths.session, schema: BffSessionSchema, signal, sent });
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
