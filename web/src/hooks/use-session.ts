import type { BffSession } from "@keyhold/contract";
import { useSuspenseQuery } from "@tanstack/react-query";
import { sessionQueries } from "@/lib/session";

/** The signed-in session. Only for pages under the signed-in layout, whose loader ensures one exists. */
export function useSession(): BffSession {
  const { data } = useSuspenseQuery(sessionQueries.current());
  if (!data) throw new Error("useSession was used outside the signed-in part of the app");
  return data;
}
