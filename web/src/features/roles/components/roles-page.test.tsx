import type { ProjectRoleSummary } from "@keyhold/contract";
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { errorBody, json, mockFetch, type RecordedRequest } from "@/testing/fetch-mock";
import { renderRoutes } from "@/testing/render";
import { RolesPage } from "./roles-page";

afterEach(() => vi.unstubAllGlobals());

const PROJECT = "b3a1c2d4-0000-4000-8000-000000000001";
const routes = [{ path: "/projects/:projectId/roles", element: <RolesPage /> }];
const path = `/projects/${PROJECT}/roles`;

function role(slug: string, name: string, n: number): ProjectRoleSummary {
  return {
    id: `b3a1c2d4-0000-4000-8000-00000000010${n}`,
    slug,
    name,
    description: `${name} role`,
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    projectId: PROJECT,
  };
}
const builtIns = [role("admin", "Admin", 1), role("viewer", "Viewer", 2)];

/** Answers the role list and the caller's own rules; `rules` decide what the page enables. */
function server(roles: ProjectRoleSummary[] | Response, rules: unknown[]) {
  return mockFetch((request: RecordedRequest) => {
    if (request.url.endsWith(`/api/v1/workspace/${PROJECT}/permissions`)) {
      return json(200, { data: { permissions: rules, membership: { id: "m1", roles: [] } } });
    }
    if (request.url.endsWith(`/api/v2/workspace/${PROJECT}/roles`)) {
      return roles instanceof Response ? roles : json(200, { roles });
    }
    return json(404, errorBody(404, "NotFound", `unexpected ${request.url}`));
  });
}

const canManageRoles = [{ subject: "role", action: ["read", "create", "edit", "delete"] }];

describe("RolesPage", () => {
  it("lists the built-in roles apart from the custom ones, which it sorts by slug", async () => {
    server([...builtIns, role("zeta-team", "Zeta", 4), role("alpha-team", "Alpha", 3)], canManageRoles);
    renderRoutes(routes, { path });
    const builtIn = await screen.findByRole("table", { name: "Built-in roles" });
    expect(
      within(builtIn)
        .getAllByRole("link")
        .map((link) => link.textContent),
    ).toEqual(["Admin", "Viewer"]);
    expect(within(builtIn).getAllByText("Built-in")).toHaveLength(2);
    expect(within(builtIn).queryByRole("button", { name: /^Delete/ })).toBeNull();
    const custom = screen.getByRole("table", { name: "Custom roles" });
    expect(
      within(custom)
        .getAllByRole("link")
        .map((link) => link.textContent),
    ).toEqual(["Alpha", "Zeta"]);
    // Enabled once the caller's own rules have arrived (they may come after the list).
    await waitFor(() =>
      expect(within(custom).getByRole("button", { name: "Delete Alpha" })).not.toHaveAttribute("aria-disabled"),
    );
  });

  it("says there are no custom roles yet, and what to do", async () => {
    server(builtIns, canManageRoles);
    renderRoutes(routes, { path });
    expect(await screen.findByRole("heading", { name: "No custom roles yet" })).toBeInTheDocument();
  });

  it("keeps create and delete focusable but inert, with the reason, when the caller's rules do not allow them", async () => {
    server([...builtIns, role("ops", "Ops", 3)], [{ subject: "role", action: ["read"] }]);
    renderRoutes(routes, { path });
    const remove = await screen.findByRole("button", { name: "Delete Ops" });
    expect(remove).toHaveAttribute("aria-disabled", "true");
    expect(remove).toHaveAccessibleDescription("Your project permissions do not include “Delete” on roles.");
    const create = screen.getByRole("button", { name: "Create role" });
    expect(create).toHaveAttribute("aria-disabled", "true");
    expect(create).toHaveAccessibleDescription("Your project permissions do not include “Create” on roles.");
  });

  it("says what failed, with the missing permission, when the list is refused", async () => {
    server(json(403, errorBody(403, "PermissionDenied", "You are not allowed to read roles")), []);
    renderRoutes(routes, { path });
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("You don't have permission");
    expect(alert).toHaveTextContent("read on role (project permission)");
  });
});
