import type { QueryClient } from "@tanstack/react-query";
import type { LoaderFunctionArgs } from "react-router";
import { placeParams } from "@/config/place";
import { projectAbilityQuery } from "@/hooks/use-project-ability";
import { secretQueries } from "./queries";
import { readSecretLocation } from "./secret-location";

/**
 * What the secrets page reads, started before its code has arrived and not awaited: the header
 * renders at once and the table shows a skeleton until the list arrives. When the URL names no
 * environment, the project's first one is shown, so the environments are read first.
 */
export function prefetchSecretsPage(queryClient: QueryClient, { params, request }: LoaderFunctionArgs): null {
  const projectId = params.projectId ?? "";
  const { environment, secretPath } = readSecretLocation(new URL(request.url).searchParams);
  void queryClient.prefetchQuery(projectAbilityQuery(projectId));
  const prefetchFolder = (slug: string) => {
    const folder = { projectId, environment: slug, secretPath };
    void queryClient.prefetchQuery(secretQueries.list(folder));
    void queryClient.prefetchQuery(secretQueries.folders(folder));
  };
  if (environment) prefetchFolder(environment);
  void queryClient.fetchQuery(secretQueries.environments(projectId)).then(
    (environments) => {
      const first = environments[0]?.slug;
      if (!environment && first) prefetchFolder(first);
    },
    // The page reads the environments again and shows why they could not be read.
    () => undefined,
  );
  return null;
}

/** Typing a search or picking a tag changes the URL, not what the page reads. */
export function samePlace(current: URL, next: URL): boolean {
  const place = (url: URL) =>
    [url.pathname, ...Object.values(placeParams).map((name) => url.searchParams.get(name))].join("\n");
  return place(current) === place(next);
}
