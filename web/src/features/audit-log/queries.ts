import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { auditApi } from "./api";
import { AUDIT_PAGE_SIZE, type AuditFilter, type AuditWindow, toListQuery } from "./audit-filter";

export const auditKeys = {
  all: ["audit-log"] as const,
  lists: () => [...auditKeys.all, "list"] as const,
  list: (filter: AuditFilter, window: AuditWindow) => [...auditKeys.lists(), filter, window] as const,
  newer: (filter: AuditFilter, since: string) => [...auditKeys.all, "newer", filter, since] as const,
  identities: (text: string) => [...auditKeys.all, "identities", text.toLowerCase()] as const,
  identity: (identityId: string) => [...auditKeys.all, "identity", identityId] as const,
  projects: () => [...auditKeys.all, "projects"] as const,
  project: (projectId: string) => [...auditKeys.all, "project", projectId] as const,
};

/**
 * How long the count of newer events holds before the page asks again, which it does when the
 * person comes back to the tab, not on a timer: each ask is itself a read of the log, recorded as
 * one, and a page left open should not fill the log with its own polling. The count leaves out
 * such reads by the person asking.
 */
export const NEWER_STALE_MS = 60_000;

export const auditQueries = {
  /**
   * The filtered events of a pinned window, page after page (offset/limit): a page shorter than
   * the page size is the last. Events written later fall outside the window, so offsets stay put.
   */
  list: (filter: AuditFilter, window: AuditWindow) =>
    infiniteQueryOptions({
      queryKey: auditKeys.list(filter, window),
      queryFn: ({ pageParam, signal }) => auditApi.list(toListQuery(filter, window, pageParam), signal),
      initialPageParam: 0,
      getNextPageParam: (lastPage, _pages, lastOffset) =>
        lastPage.length < AUDIT_PAGE_SIZE ? undefined : lastOffset + AUDIT_PAGE_SIZE,
      // A window in the past does not change: no refetch on focus of what is already read.
      staleTime: Number.POSITIVE_INFINITY,
    }),
  /** Events matching the filter written after `since` (the pinned window's end), up to a page. */
  newer: (filter: AuditFilter, since: string, selfId: string) =>
    queryOptions({
      queryKey: auditKeys.newer(filter, since),
      queryFn: ({ signal }) =>
        auditApi.list(
          toListQuery(filter, { startDate: since, endDate: new Date().toISOString() }, 0, AUDIT_PAGE_SIZE),
          signal,
        ),
      select: (events) =>
        events.filter(
          (event) =>
            event.createdAt > since &&
            !(event.event.type === "view-audit-logs" && event.actor.metadata.identityId === selfId),
        ).length,
      staleTime: NEWER_STALE_MS,
      refetchOnWindowFocus: true,
    }),
  identities: (text: string) =>
    queryOptions({
      queryKey: auditKeys.identities(text),
      queryFn: ({ signal }) => auditApi.searchIdentities(text, signal),
      staleTime: 30_000,
    }),
  identity: (identityId: string) =>
    queryOptions({
      queryKey: auditKeys.identity(identityId),
      queryFn: ({ signal }) => auditApi.identity(identityId, signal),
      staleTime: 5 * 60_000,
    }),
  projects: () =>
    queryOptions({
      queryKey: auditKeys.projects(),
      queryFn: ({ signal }) => auditApi.projects(signal),
      staleTime: 60_000,
    }),
  project: (projectId: string) =>
    queryOptions({
      queryKey: auditKeys.project(projectId),
      queryFn: ({ signal }) => auditApi.project(projectId, signal),
      staleTime: 60_000,
    }),
};
