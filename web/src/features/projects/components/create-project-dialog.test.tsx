import { screen, waitFor, within } from "@testing-library/react";
import { useParams } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { errorBody, json, mockFetch } from "@/testing/fetch-mock";
import { ORG_ID, session } from "@/testing/fixtures";
import { renderRoutes } from "@/testing/render";
import { sessionKeys } from "@/lib/session";
import { CreateProjectDialog } from "./create-project-dialog";

afterEach(() => vi.unstubAllGlobals());

const PROJECT_ID = "06d3428e-0b8f-424e-9188-5fa76bdc2ed1";

function OverviewStub() {
  const { projectId } = useParams();
  return <h1>Overview of {projectId}</h1>;
}

const routes = [
  { path: "/projects", element: <CreateProjectDialog /> },
  { path: "/projects/:projectId", element: <OverviewStub /> },
];

function created(slug: string) {
  const env = (name: string, envSlug: string) => ({ name, slug: envSlug, id: `${envSlug}-id` });
  return {
    project: {
      id: PROJECT_ID,
      _id: PROJECT_ID,
      name: "Payments API",
      description: null,
      type: "secret-manager",
      slug,
      orgId: ORG_ID,
      createdAt: "2026-01-02T03:04:05.000Z",
      updatedAt: "2026-01-02T03:04:05.000Z",
      version: 3,
      pitVersionLimit: 10,
      hasDeleteProtection: false,
      secretSharing: true,
      showSnapshotsLegacy: false,
      environments: [env("Development", "dev"), env("Staging", "staging"), env("Production", "prod")],
    },
  };
}

async function open(options: { deleteProtection?: boolean; projectDescription?: boolean } = {}) {
  const rendered = renderRoutes(routes, { path: "/projects" });
  const missing = [
    options.deleteProtection === false && {
      name: "deleteProtection",
      available: false,
      reason: "This server does not support delete protection.",
    },
    options.projectDescription === false && {
      name: "projectDescription",
      available: false,
      reason: "This server does not keep project descriptions.",
    },
  ].filter(Boolean);
  if (missing.length > 0) {
    rendered.queryClient.setQueryData(sessionKeys.current(), { ...session, server: { features: missing } });
  }
  await rendered.user.click(screen.getByRole("button", { name: "Create project" }));
  const dialog = await screen.findByRole("dialog", { name: "Create project" });
  const name = await within(dialog).findByRole("textbox", { name: "Name" });
  await waitFor(() => expect(name).toHaveFocus());
  return { ...rendered, dialog, name, slug: within(dialog).getByRole("textbox", { name: "Slug" }) };
}

describe("CreateProjectDialog", () => {
  it("previews the slug from the name, sends exactly that slug, and opens the new project", async () => {
    const { requests } = mockFetch((req) => json(200, created(JSON.parse(req.body ?? "{}").slug)));
    const { user, dialog, name, slug } = await open();
    await user.type(name, "Payments API");
    expect((slug as HTMLInputElement).value).toMatch(/^payments-api-[a-z0-9]{4}$/);
    const previewed = (slug as HTMLInputElement).value;

    await user.click(within(dialog).getByRole("button", { name: "Create project" }));
    expect(await screen.findByRole("heading", { name: `Overview of ${PROJECT_ID}` })).toBeInTheDocument();
    expect(requests).toHaveLength(1);
    expect(requests[0]?.url).toBe("/api/v2/workspace");
    expect(JSON.parse(requests[0]?.body ?? "null")).toEqual({
      projectName: "Payments API",
      slug: previewed,
      shouldCreateDefaultEnvs: true,
      hasDeleteProtection: false,
    });
  });

  it("stops following the name once the slug is edited, and derives it again on request", async () => {
    const { user, dialog, name, slug } = await open();
    await user.type(name, "Payments");
    await user.clear(slug);
    await user.type(slug, "my-own-slug");
    await user.type(name, " API");
    expect(slug).toHaveValue("my-own-slug");

    await user.click(within(dialog).getByRole("button", { name: "Derive from the name" }));
    expect((slug as HTMLInputElement).value).toMatch(/^payments-api-[a-z0-9]{4}$/);
  });

  it("refuses an invalid slug before sending anything", async () => {
    const { fetchMock } = mockFetch(() => json(500, {}));
    const { user, dialog, name, slug } = await open();
    await user.type(name, "Payments");
    await user.clear(slug);
    await user.type(slug, "Bad_Slug");
    await user.click(within(dialog).getByRole("button", { name: "Create project" }));

    expect(await within(dialog).findByText(/Slug may contain only lowercase letters/)).toBeInTheDocument();
    expect(slug).toHaveAttribute("aria-invalid", "true");
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("shows the server's refusal of a taken slug and stays open", async () => {
    const message = 'A project with the slug "payments" already exists in your organization.';
    mockFetch(() => json(400, errorBody(400, "BadRequest", message)));
    const { user, dialog, name } = await open();
    await user.type(name, "Payments");
    await user.click(within(dialog).getByRole("button", { name: "Create project" }));

    const alert = await within(dialog).findByRole("alert");
    expect(alert).toHaveTextContent(message);
    // A refusal that names no field sits at the top of the form, above its fields.
    expect(alert.compareDocumentPosition(name)).toBe(Node.DOCUMENT_POSITION_FOLLOWING);
    expect(screen.getByRole("dialog", { name: "Create project" })).toBeInTheDocument();
  });

  it("says delete protection is unavailable on a server without it", async () => {
    const { dialog } = await open({ deleteProtection: false });
    const toggle = within(dialog).getByRole("switch", { name: "Delete protection" });
    expect(toggle).toBeDisabled();
    expect(toggle).toHaveAccessibleDescription("Not available: This server does not support delete protection.");
  });

  it("says descriptions are unavailable on a server that drops them, and sends none", async () => {
    const { requests } = mockFetch((req) => json(200, created(JSON.parse(req.body ?? "{}").slug)));
    const { user, dialog, name } = await open({ projectDescription: false });
    const description = within(dialog).getByRole("textbox", { name: /Description/ });
    expect(description).toBeDisabled();
    expect(description).toHaveAccessibleDescription("Not available: This server does not keep project descriptions.");
    await user.type(name, "Payments API");
    await user.click(within(dialog).getByRole("button", { name: "Create project" }));
    expect(await screen.findByRole("heading", { name: `Overview of ${PROJECT_ID}` })).toBeInTheDocument();
    expect(JSON.parse(requests[0]?.body ?? "null")).not.toHaveProperty("projectDescription");
  });
});
