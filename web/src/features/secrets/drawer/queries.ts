import { infiniteQueryOptions } from "@tanstack/react-query";
import { secretKeys } from "../queries";
import { drawerApi, VERSIONS_PAGE } from "./api";

export const drawerKeys = {
  versions: (projectId: string, secretId: string) => [...secretKeys.project(projectId), "versions", secretId] as const,
};

export const drawerQueries = {
  /** A secret's versions, newest first, a page at a time; a short page is the last. */
  versions: (projectId: string, secretId: string) =>
    infiniteQueryOptions({
      queryKey: drawerKeys.versions(projectId, secretId),
      queryFn: ({ pageParam, signal }) => drawerApi.versions(secretId, pageParam, signal),
      initialPageParam: 0,
      getNextPageParam: (last, pages) => (last.length < VERSIONS_PAGE ? undefined : pages.length * VERSIONS_PAGE),
      // Versions hold values: they leave the cache when the drawer no longer shows them.
      gcTime: 0,
      retry: false,
    }),
};
