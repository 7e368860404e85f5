import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { errorBody, json, mockFetch } from "@/testing/fetch-mock";
import { ORG_ID } from "@/testing/fixtures";
import { renderRoutes } from "@/testing/render";
import { ProjectsPage } from "./projects-page";

afterEach(() => vi.unstubAllGlobals());

function project(name: string, slug: string, environments: string[]) {
  const id = `00000000-0000-4000-8000-${slug
    .padStart(12, "0")
    .slice(-12)
    .replace(/[^0-9a-f]/g, "0")}`;
  return {
    id,
    _id: id,
    name,
    description: null,
    type: "secret-manager",
    slug,
    orgId: ORG_ID,
    createdAt: "2026-01-02T03:04:05.000Z",
    updatedAt: "2026-01-02T03:04:05.000Z",
    version: 3,
    pitVersionLimit: 10,
    secretSharing: true,
    showSnapshotsLegacy: false,
    environments: environments.map((envSlug) => ({ name: envSlug, slug: envSlug, id: `${envSlug}-id` })),
  };
}

const render = () => renderRoutes([{ path: "/projects", element: <ProjectsPage /> }], { path: "/projects" });

describe("ProjectsPage", () => {
  it("lists the projects by name with slug and environments, and filters them", async () => {
    mockFetch(() =>
      json(200, {
        workspaces: [
          project("Storefront", "storefront-a1b2", ["dev"]),
          project("Payments", "payments-c3d4", ["dev", "qa"]),
        ],
      }),
    );
    const { user } = render();
    const table = await screen.findByRole("table", { name: "Projects" });
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows.map((row) => within(row).getByRole("link").textContent)).toEqual(["Payments", "Storefront"]);
    expect(rows[0]).toHaveTextContent("payments-c3d4");
    expect(rows[0]).toHaveTextContent("qa");
    expect(screen.getByText("2 projects")).toBeInTheDocument();

    await user.type(screen.getByRole("searchbox", { name: "Filter projects" }), "qa");
    expect(within(table).getAllByRole("row")).toHaveLength(2);
    await user.clear(screen.getByRole("searchbox", { name: "Filter projects" }));
    await user.type(screen.getByRole("searchbox", { name: "Filter projects" }), "nothing like it");
    expect(screen.getByText("No projects match “nothing like it”.")).toBeInTheDocument();
  });

  it("offers to create the first project when there is none", async () => {
    mockFetch(() => json(200, { workspaces: [] }));
    render();
    expect(await screen.findByRole("heading", { name: "No projects yet" })).toBeInTheDocument();
    expect(await screen.findByRole("button", { name: "Create project" })).toBeInTheDocument();
  });

  it("says what failed and retries", async () => {
    let calls = 0;
    mockFetch(() => {
      calls += 1;
      return calls === 1
        ? json(503, errorBody(503, "ServiceUnavailable", "The secrets server did not answer"))
        : json(200, { workspaces: [project("Payments", "payments-c3d4", ["dev"])] });
    });
    const { user } = render();
    expect(await screen.findByText("Could not load projects")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByRole("link", { name: "Payments" })).toBeInTheDocument();
  });
});
