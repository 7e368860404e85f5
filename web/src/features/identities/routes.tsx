import type { QueryClient } from "@tanstack/react-query";
import type { LoaderFunctionArgs, RouteObject } from "react-router";
import { RouteError } from "@/components/errors/route-error";
import { paths } from "@/config/paths";
import type { RouteHandle } from "@/lib/route-handle";
import { sessionQueries } from "@/lib/session";
import { IdentitiesPage } from "./components/identities-page";
import { IdentityCrumb } from "./components/identity-crumb";
import { IdentityEditForm } from "./components/identity-edit-form";
import { IdentityLayout } from "./components/identity-layout";
import { IdentityOverview } from "./components/identity-overview";
import { identityQueries } from "./queries";

function requireIdentityId({ params }: LoaderFunctionArgs): string {
  if (!params.identityId) throw new Response("Not found", { status: 404 });
  return params.identityId;
}

export function identityRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: paths.identities.path,
      handle: { crumb: () => ({ label: "Identities", to: paths.identities.href() }) } satisfies RouteHandle,
      ErrorBoundary: RouteError,
      children: [
        {
          index: true,
          Component: IdentitiesPage,
          // Not awaited: the page header renders at once and the table shows a skeleton
          // until the list arrives (errors appear in the page's own error panel).
          loader: async () => {
            const session = await queryClient.ensureQueryData(sessionQueries.current());
            if (session) void queryClient.prefetchQuery(identityQueries.list(session.organization.id));
            return null;
          },
        },
        {
          path: ":identityId",
          Component: IdentityLayout,
          ErrorBoundary: RouteError,
          handle: {
            crumb: ({ identityId = "" }) => ({
              label: <IdentityCrumb identityId={identityId} />,
              to: paths.identity.href(identityId),
            }),
          } satisfies RouteHandle,
          // Awaited: the identity is the page's subject, and a 404 should show the not-found page.
          loader: async (args) => {
            await queryClient.ensureQueryData(identityQueries.detail(requireIdentityId(args)));
            return null;
          },
          children: [
            { index: true, Component: IdentityOverview },
            {
              path: "edit",
              Component: IdentityEditForm,
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
