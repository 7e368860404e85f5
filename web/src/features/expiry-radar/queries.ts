import { queryOptions } from "@tanstack/react-query";
import { radarApi } from "./api";

export const radarKeys = {
  all: ["expiry-radar"] as const,
  endings: (orgId: string) => [...radarKeys.all, "endings", orgId] as const,
};

export const radarQueries = {
  endings: (orgId: string) =>
    queryOptions({
      queryKey: radarKeys.endings(orgId),
      queryFn: ({ signal }) => radarApi.endings(orgId, signal),
      // The countdowns tick on the page's clock; the list itself is read again each minute.
      refetchInterval: 60_000,
    }),
};
