import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider, type RouteObject } from "react-router";
import { TooltipProvider } from "@/components/ui/tooltip";
import { sessionKeys } from "@/lib/session";
import { session } from "./fixtures";

/**
 * Renders routes in a memory router with a fresh query client, signed in unless told otherwise.
 * Routes whose loaders read the cache are built from that client.
 */
export function renderRoutes(
  routes: RouteObject[] | ((queryClient: QueryClient) => RouteObject[]),
  { path = "/", signedIn = true } = {},
) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  queryClient.setQueryData(sessionKeys.current(), signedIn ? session : null);
  const router = createMemoryRouter(typeof routes === "function" ? routes(queryClient) : routes, {
    initialEntries: [path],
  });
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={queryClient}>
      <TooltipProvider>
        <RouterProvider router={router} />
      </TooltipProvider>
    </QueryClientProvider>,
  );
  return { router, queryClient, user };
}
