import { queryOptions } from "@tanstack/react-query";
import { auditSettingsApi, streamsApi } from "./api";

export const auditSettingsKeys = {
  all: ["audit-settings"] as const,
  retention: () => [...auditSettingsKeys.all, "retention"] as const,
  projects: () => [...auditSettingsKeys.all, "projects"] as const,
  streams: () => [...auditSettingsKeys.all, "streams"] as const,
  streamList: () => [...auditSettingsKeys.streams(), "list"] as const,
  streamStatus: () => [...auditSettingsKeys.streams(), "status"] as const,
};

/** How often the delivery state is read again while the streams are on screen. */
export const STREAM_STATUS_REFRESH_MS = 2000;

export const auditSettingsQueries = {
  retention: () =>
    queryOptions({
      queryKey: auditSettingsKeys.retention(),
      queryFn: ({ signal }) => auditSettingsApi.retention(signal),
    }),
  projects: () =>
    queryOptions({
      queryKey: auditSettingsKeys.projects(),
      queryFn: ({ signal }) => auditSettingsApi.projects(signal),
    }),
  streamList: () =>
    queryOptions({
      queryKey: auditSettingsKeys.streamList(),
      queryFn: ({ signal }) => streamsApi.list(signal),
    }),
  /** Delivery moves on its own (a receiver recovers, events arrive): read again while it is shown. */
  streamStatus: () =>
    queryOptions({
      queryKey: auditSettingsKeys.streamStatus(),
      queryFn: ({ signal }) => streamsApi.status(signal),
      refetchInterval: STREAM_STATUS_REFRESH_MS,
      retry: false,
    }),
};
