import { INTEGRATION_NOT_SYNCED_MESSAGE, type Integration } from "@keyhold/contract";
import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { errorBody, json, mockFetch, type RecordedRequest } from "@/testing/fetch-mock";
import { renderRoutes } from "@/testing/render";
import { IntegrationsPage } from "./integrations-page";

afterEach(() => vi.unstubAllGlobals());

const PROJECT = "b3a1c2d4-0000-4000-8000-000000000001";
const routes = [{ path: "/projects/:projectId/integrations", element: <IntegrationsPage /> }];
const path = `/projects/${PROJECT}/integrations`;

const integration: Integration = {
  id: "b3a1c2d4-0000-4000-8000-000000000401",
  isActive: true,
  app: "acme/api",
  integration: "github",
  integrationAuthId: "b3a1c2d4-0000-4000-8000-000000000402",
  envId: "b3a1c2d4-0000-4000-8000-000000000403",
  secretPath: "/backend",
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-02T00:00:00.000Z",
  isSynced: false,
  syncMessage: INTEGRATION_NOT_SYNCED_MESSAGE,
  environment: { id: "e", name: "Production", slug: "prod" },
};

function server(list: Integration[] | Response, rules: unknown[]) {
  return mockFetch((request: RecordedRequest) => {
    if (request.url.endsWith(`/api/v1/workspace/${PROJECT}/permissions`))
      return json(200, { data: { permissions: rules, membership: { id: "m1", roles: [] } } });
    if (request.url.endsWith(`/api/v1/workspace/${PROJECT}/integrations`))
      return list instanceof Response ? list : json(200, { integrations: list });
    if (request.method === "DELETE" && request.url.endsWith(`/api/v1/integration/${integration.id}`))
      return json(200, { integration });
    return json(404, errorBody(404, "NotFound", `unexpected ${request.url}`));
  });
}

const canManage = [{ subject: "integrations", action: ["read", "delete"] }];

describe("IntegrationsPage", () => {
  it("lists an integration with app, provider, source, status and last sync message", async () => {
    server([integration], canManage);
    renderRoutes(routes, { path });
    const row = (await screen.findByText("acme/api")).closest("tr");
    if (!row) throw new Error("no row");
    const cells = within(row).getAllByRole("cell");
    expect(cells[0]).toHaveTextContent("acme/apiGitHub");
    expect(cells[1]).toHaveTextContent("Production/backend");
    expect(cells[2]).toHaveTextContent("Not synced");
    expect(cells[3]).toHaveTextContent(INTEGRATION_NOT_SYNCED_MESSAGE);
  });

  it("deletes after confirmation, and only then", async () => {
    const { requests } = server([integration], canManage);
    const { user } = renderRoutes(routes, { path });
    const name = "Delete integration acme/api (GitHub)";
    await screen.findByRole("button", { name });
    // The button is replaced once the caller's rules arrive: read it again each time.
    await vi.waitFor(() => expect(screen.getByRole("button", { name })).not.toHaveAttribute("aria-disabled"));
    await user.click(screen.getByRole("button", { name }));
    const confirm = screen.getByRole("alertdialog", { name: "Delete integration" });
    expect(confirm).toHaveTextContent("prod:/backend");
    expect(requests.filter((r) => r.method === "DELETE")).toHaveLength(0);
    await user.click(within(confirm).getByRole("button", { name: "Delete integration" }));
    await vi.waitFor(() => expect(requests.filter((r) => r.method === "DELETE")).toHaveLength(1));
  });

  it("keeps delete focusable but inert, with the reason, when the caller may only read", async () => {
    server([integration], [{ subject: "integrations", action: ["read"] }]);
    renderRoutes(routes, { path });
    const name = "Delete integration acme/api (GitHub)";
    await screen.findByRole("button", { name });
    await vi.waitFor(() =>
      expect(screen.getByRole("button", { name })).toHaveAccessibleDescription(
        "Your project permissions do not include “Delete” on integrations.",
      ),
    );
    expect(screen.getByRole("button", { name })).toHaveAttribute("aria-disabled", "true");
  });

  it("explains that integrations come from the provider's flow when there are none", async () => {
    server([], canManage);
    renderRoutes(routes, { path });
    expect(await screen.findByRole("heading", { name: "No integrations in this project" })).toBeInTheDocument();
    expect(screen.getByText(/provider's own sign-in flow/)).toBeInTheDocument();
  });

  it("says what failed, with the missing permission, when the list is refused", async () => {
    server(json(403, errorBody(403, "PermissionDenied", "You are not allowed to read integrations")), canManage);
    renderRoutes(routes, { path });
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("You don't have permission");
    expect(alert).toHaveTextContent("read on integrations");
  });
});
