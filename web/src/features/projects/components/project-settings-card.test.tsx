import type { Project, ServerFeature } from "@keyhold/contract";
import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { sessionKeys } from "@/lib/session";
import { json, mockFetch } from "@/testing/fetch-mock";
import { ORG_ID, session } from "@/testing/fixtures";
import { renderRoutes } from "@/testing/render";
import { ProjectSettingsCard } from "./project-settings-card";
import type { ProjectDenials } from "./use-project-denials";

afterEach(() => vi.unstubAllGlobals());

const PROJECT_ID = "06d3428e-0b8f-424e-9188-5fa76bdc2ed1";

const project: Project = {
  id: PROJECT_ID,
  _id: PROJECT_ID,
  name: "Payments API",
  description: null,
  type: "secret-manager",
  slug: "payments-api-ab12",
  orgId: ORG_ID,
  createdAt: "2026-01-02T03:04:05.000Z",
  updatedAt: "2026-01-02T03:04:05.000Z",
  version: 3,
  pitVersionLimit: 10,
  hasDeleteProtection: false,
  secretSharing: true,
  showSnapshotsLegacy: false,
  environments: [],
};

const allowed: ProjectDenials = {
  editSettings: undefined,
  deleteProject: undefined,
  createEnvironment: undefined,
  editEnvironment: undefined,
  deleteEnvironment: undefined,
};

const olderServer: ServerFeature[] = [
  { name: "deleteProtection", available: false, reason: "This server does not support delete protection." },
  { name: "projectDescription", available: false, reason: "This server does not keep project descriptions." },
];

function renderCard(features?: ServerFeature[]) {
  const rendered = renderRoutes([{ path: "/", element: <ProjectSettingsCard project={project} denials={allowed} /> }]);
  if (features) rendered.queryClient.setQueryData(sessionKeys.current(), { ...session, server: { features } });
  return { ...rendered, settings: screen.getByRole("region", { name: "Settings" }) };
}

describe("ProjectSettingsCard", () => {
  it("sends the name, description and delete protection to a server that keeps them", async () => {
    const { requests } = mockFetch(() => json(200, { workspace: { ...project, name: "Payments" } }));
    const { user, settings } = renderCard();
    await user.clear(within(settings).getByRole("textbox", { name: "Name" }));
    await user.type(within(settings).getByRole("textbox", { name: "Name" }), "Payments");
    await user.type(within(settings).getByRole("textbox", { name: "Description" }), "Card payments");
    await user.click(within(settings).getByRole("button", { name: "Save settings" }));

    await vi.waitFor(() => expect(requests.filter((r) => r.method === "PATCH")).toHaveLength(1));
    expect(JSON.parse(requests.find((r) => r.method === "PATCH")?.body ?? "null")).toEqual({
      name: "Payments",
      description: "Card payments",
      hasDeleteProtection: false,
    });
  });

  it("on a server without descriptions or delete protection, says so and sends only what it keeps", async () => {
    const { requests } = mockFetch(() => json(200, { workspace: { ...project, name: "Payments" } }));
    const { user, settings } = renderCard(olderServer);
    const description = await within(settings).findByRole("textbox", { name: "Description" });
    expect(description).toBeDisabled();
    expect(description).toHaveAccessibleDescription("Not available: This server does not keep project descriptions.");
    await user.clear(within(settings).getByRole("textbox", { name: "Name" }));
    await user.type(within(settings).getByRole("textbox", { name: "Name" }), "Payments");
    await user.click(within(settings).getByRole("button", { name: "Save settings" }));

    await vi.waitFor(() => expect(requests.filter((r) => r.method === "PATCH")).toHaveLength(1));
    expect(JSON.parse(requests.find((r) => r.method === "PATCH")?.body ?? "null")).toEqual({ name: "Payments" });
  });
});
