import type { QueryClient } from "@tanstack/react-query";
import type { LoaderFunctionArgs, RouteObject } from "react-router";
import { lazyRouteError } from "@/components/errors/lazy-route-error";
import { paths } from "@/config/paths";
import type { RouteHandle } from "@/lib/route-handle";
import { sessionQueries } from "@/lib/session";

/**
 * Pages, loaders' queries and the identity crumb are imported on demand: none of them is
 * part of the sign-in page's download. Each route's component and data load in parallel.
 */
const queries = async () => (await import("./queries")).identityQueries;

function requireIdentityId({ params }: LoaderFunctionArgs): string {
  if (!params.identityId) throw new Response("Not found", { status: 404 });
  return params.identityId;
}

export function identityRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: paths.identities.path,
      handle: { crumb: () => ({ label: "Identities", to: paths.identities.href() }) } satisfies RouteHandle,
      lazy: { ErrorBoundary: lazyRouteError },
      children: [
        {
          index: true,
          lazy: { Component: async () => (await import("./components/identities-page")).IdentitiesPage },
          // Not awaited: the page header renders at once and the table shows a skeleton
          // until the list arrives (errors appear in the page's own error panel).
          loader: async ({ request }) => {
            const [session, identityQueries, { readIdentitySearch }] = await Promise.all([
              queryClient.ensureQueryData(sessionQueries.current()),
              queries(),
              import("./identity-search"),
            ]);
            const search = readIdentitySearch(new URL(request.url).searchParams);
            if (session) void queryClient.prefetchQuery(identityQueries.list(search));
            return null;
          },
        },
        {
          path: ":identityId",
          lazy: {
            Component: async () => (await import("./components/identity-layout")).IdentityLayout,
            ErrorBoundary: lazyRouteError,
            handle: async () => {
              const { IdentityCrumb } = await import("./components/identity-crumb");
              return {
                crumb: ({ identityId = "" }) => ({
                  label: <IdentityCrumb identityId={identityId} />,
                  to: paths.identity.href(identityId),
                }),
              } satisfies RouteHandle;
            },
          },
          // Awaited: the identity is the page's subject, and a 404 should show the not-found page.
          loader: async (args) => {
            const identityId = requireIdentityId(args);
            const identityQueries = await queries();
            // Its project memberships are a section of the page: fetched alongside, not waited for.
            void queryClient.prefetchQuery(identityQueries.projectMemberships(identityId));
            await queryClient.ensureQueryData(identityQueries.detail(identityId));
            return null;
          },
          children: [
            {
              index: true,
              lazy: { Component: async () => (await import("./components/identity-overview")).IdentityOverview },
            },
            {
              path: "edit",
              lazy: { Component: async () => (await import("./components/identity-edit-form")).IdentityEditForm },
              handle: {
                crumb: ({ identityId = "" }) => ({ label: "Edit", to: paths.identityEdit.href(identityId) }),
              } satisfies RouteHandle,
            },
          ],
        },
      ],
    },
  ];
}
