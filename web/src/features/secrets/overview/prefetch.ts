import type { QueryClient } from "@tanstack/react-query";
import type { LoaderFunctionArgs } from "react-router";
import { projectAbilityQuery } from "@/hooks/use-project-ability";
import { secretQueries } from "../queries";
import { readSecretLocation } from "../secret-location";
import { overviewQueries } from "./queries";

/**
 * What the overview reads, started before its code has arrived and not awaited: the
 * environments, then each one's folder and sub-folders in parallel.
 */
export function prefetchOverviewPage(queryClient: QueryClient, { params, request }: LoaderFunctionArgs): null {
  const projectId = params.projectId ?? "";
  const { secretPath } = readSecretLocation(new URL(request.url).searchParams);
  void queryClient.prefetchQuery(projectAbilityQuery(projectId));
  void queryClient.fetchQuery(secretQueries.environments(projectId)).then(
    (environments) => {
      for (const { slug } of environments) {
        const folder = { projectId, environment: slug, secretPath };
        void queryClient.prefetchQuery(overviewQueries.secrets(folder));
        void queryClient.prefetchQuery(secretQueries.folders(folder));
      }
    },
    // The page reads the environments again and shows why they could not be read.
    () => undefined,
  );
  return null;
}
