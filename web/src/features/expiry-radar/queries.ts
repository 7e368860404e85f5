import { queryOptions } from "@tanstack/react-query";
import { type RadarServer, radarApi } from "./api";

export const radarKeys = {
  all: ["expiry-radar"] as const,
  endings: (orgId: string, server: RadarServer) =>
    [...radarKeys.all, "endings", orgId, server.privilegesV2.available] as const,
};

export const radarQueries = {
  endings: (orgId: string, server: RadarServer) =>
    queryOptions({
      queryKey: radarKeys.endings(orgId, server),
      queryFn: ({ signal }) => radarApi.endings(orgId, server, signal),
      // The countdowns tick on the page's clock; the list itself is read again each minute.
      refetchInterval: 60_000,
    }),
};
