import type { QueryClient } from "@tanstack/react-query";
import type { RouteObject } from "react-router";
import { paths } from "@/config/paths";
import type { RouteHandle } from "@/lib/route-handle";

/** The project's secret imports page, as a child of the project route; page and loader load on demand. */
export function secretImportsRoute(queryClient: QueryClient): RouteObject {
  return {
    path: paths.project.secretImports.segment,
    lazy: { Component: async () => (await import("./components/secret-imports-page")).SecretImportsPage },
    handle: {
      crumb: ({ projectId = "" }) => ({ label: "Secret imports", to: paths.project.secretImports.href(projectId) }),
    } satisfies RouteHandle,
    loader: async (args) => (await import("./loader")).loadSecretImports(queryClient, args),
  };
}
