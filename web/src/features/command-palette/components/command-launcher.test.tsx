import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { errorBody, json, mockFetch, type RecordedRequest } from "@/testing/fetch-mock";
import { IDENTITY_ID, membership, ORG_ID } from "@/testing/fixtures";
import { renderRoutes } from "@/testing/render";
import { CommandLauncher } from "./command-launcher";

afterEach(() => vi.unstubAllGlobals());

const PROJECT = "b3a1c2d4-0000-4000-8000-000000000001";
const STAMP = "2026-01-02T03:04:05.000Z";
/** What a server that ignores `viewSecretValue=false` would send: it must never reach the screen. */
const VALUE = "postgres://app:hunter2@db";

const project = {
  id: PROJECT,
  _id: PROJECT,
  name: "Payments",
  description: null,
  type: "secret-manager",
  slug: "payments",
  orgId: ORG_ID,
  createdAt: STAMP,
  updatedAt: STAMP,
  version: 3,
  pitVersionLimit: 10,
  secretSharing: true,
  showSnapshotsLegacy: false,
  environments: [
    { name: "Development", slug: "dev", id: "env-dev" },
    { name: "Production", slug: "prod", id: "env-prod" },
  ],
};

function secret(environment: string, secretKey: string, secretPath: string) {
  return {
    id: `id-${environment}-${secretKey}`,
    _id: `id-${environment}-${secretKey}`,
    workspace: PROJECT,
    environment,
    version: 1,
    type: "shared",
    secretKey,
    secretValue: VALUE,
    secretComment: "",
    createdAt: STAMP,
    updatedAt: STAMP,
    secretPath,
    secretValueHidden: false,
  };
}

const folder = {
  id: "f-app",
  name: "app",
  version: 1,
  createdAt: STAMP,
  updatedAt: STAMP,
  envId: "env-prod",
  parentId: "root",
  relativePath: "/app",
};

const role = {
  id: "c0ffee00-0000-4000-8000-000000000001",
  name: "Deployer",
  slug: "deployer",
  description: null,
  createdAt: STAMP,
  updatedAt: STAMP,
  projectId: PROJECT,
};

function server({ projects = () => json(200, { workspaces: [project] }) } = {}) {
  return mockFetch((request: RecordedRequest) => {
    const url = new URL(request.url, "http://console");
    if (url.pathname === "/api/v1/workspace") return projects();
    if (url.pathname === `/api/v2/organizations/${ORG_ID}/identity-memberships`) {
      return json(200, { identityMemberships: [membership()], totalCount: 1 });
    }
    if (url.pathname === `/api/v2/workspace/${PROJECT}/roles`) return json(200, { roles: [role] });
    if (url.pathname === "/api/v1/folders") {
      return json(200, { folders: url.searchParams.get("environment") === "prod" ? [folder] : [] });
    }
    if (url.pathname === "/api/v3/secrets/raw") {
      const env = url.searchParams.get("environment") ?? "";
      return json(200, {
        secrets: env === "prod" ? [secret(env, "DB_URL", "/app"), secret(env, "STRIPE_KEY", "/")] : [],
      });
    }
    return json(404, errorBody(404, "NotFound", `no route ${url.pathname}`));
  });
}

function renderLauncher() {
  return renderRoutes([
    { path: "/", element: <CommandLauncher /> },
    { path: "*", element: <CommandLauncher /> },
  ]);
}

describe("CommandLauncher", () => {
  it("opens the palette with Ctrl-K, finds a secret key by part of its name and opens it in its project", async () => {
    const { requests } = server();
    const { user, router } = renderLauncher();

    await user.keyboard("{Control>}k{/Control}");
    const dialog = await screen.findByRole("dialog", { name: "Command palette" });
    // Going to a page needs no folder or key: they are read once something is typed.
    expect(await within(dialog).findByRole("option", { name: "Payments" })).toBeVisible();
    await waitFor(() => expect(within(dialog).getByRole("listbox")).not.toHaveAttribute("aria-busy", "true"));
    expect(requests.filter((r) => /\/api\/(v3\/secrets\/raw|v1\/folders)/.test(r.url))).toEqual([]);
    await user.type(within(dialog).getByRole("combobox", { name: "Search the console" }), "db_u");
    const option = await within(dialog).findByRole("option", { name: "DB_URL — Payments · Production · /app" });
    await user.click(option);

    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(router.state.location.pathname).toBe(`/projects/${PROJECT}/secrets`);
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      env: "prod",
      path: "/app",
      secret: "DB_URL",
    });
    // Secret keys are read with values withheld, and a value sent anyway is never shown.
    const secretReads = requests.filter((r) => r.url.includes("/api/v3/secrets/raw"));
    expect(secretReads.length).toBe(2);
    for (const read of secretReads)
      expect(new URL(read.url, "http://c").searchParams.get("viewSecretValue")).toBe("false");
    expect(document.body.textContent).not.toContain(VALUE);
  });

  it("moves through results with the arrow keys and opens the chosen one with Enter", async () => {
    server();
    const { user, router } = renderLauncher();
    await user.click(screen.getByRole("button", { name: "Search (command palette)" }));
    const input = await screen.findByRole("combobox", { name: "Search the console" });
    await user.type(input, "deployer");
    // The role is named so exactly: it comes first, then the action and the identity that mention it.
    const role = await screen.findByRole("option", { name: "Deployer — Payments" });
    expect(role).toHaveAttribute("aria-selected", "true");
    await user.keyboard("{ArrowDown}{ArrowDown}{ArrowUp}");
    expect(screen.getByRole("option", { name: "Attach auth method to ci-deployer" })).toHaveAttribute(
      "aria-selected",
      "true",
    );
    await user.keyboard("{Enter}");
    await waitFor(() => expect(router.state.location.pathname).toBe(`/identities/${IDENTITY_ID}`));
    expect(router.state.location.hash).toBe("#identity-auth-methods");
  });

  it("offers the frequent actions, and says when nothing matches", async () => {
    server();
    const { user } = renderLauncher();
    await user.keyboard("{Control>}k{/Control}");
    const input = await screen.findByRole("combobox", { name: "Search the console" });
    await user.type(input, "attach ci");
    expect(await screen.findByRole("option", { name: "Attach auth method to ci-deployer" })).toBeVisible();
    await user.clear(input);
    await user.type(input, "create secret prod");
    expect(await screen.findByRole("option", { name: "Create secret in Payments/Production" })).toBeVisible();
    await user.type(input, "zzz");
    expect(await screen.findByText("Nothing matches “create secret prodzzz”.")).toBeVisible();
  });

  it("reports a list it could not read, and reads it again on Retry", async () => {
    let fail = true;
    server({
      projects: () =>
        fail ? json(500, errorBody(500, "Internal Server Error", "boom")) : json(200, { workspaces: [project] }),
    });
    const { user } = renderLauncher();
    await user.keyboard("{Control>}k{/Control}");
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Could not read the projects: they are left out of the results.");
    // The rest of the palette still works.
    expect(screen.getByRole("option", { name: "Identities" })).toBeVisible();
    fail = false;
    await user.click(within(alert).getByRole("button", { name: "Retry" }));
    expect(await screen.findByRole("option", { name: "Payments" })).toBeVisible();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("closes with Escape, and Ctrl-K toggles it", async () => {
    server();
    const { user } = renderLauncher();
    await user.keyboard("{Control>}k{/Control}");
    await screen.findByRole("dialog", { name: "Command palette" });
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    await user.keyboard("{Control>}k{/Control}");
    await screen.findByRole("dialog", { name: "Command palette" });
    await user.keyboard("{Control>}k{/Control}");
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
  });

  it("lists the keyboard shortcuts on ?, except while typing in a field", async () => {
    server();
    const { user } = renderLauncher();
    await user.keyboard("?");
    const dialog = await screen.findByRole("dialog", { name: "Keyboard shortcuts" });
    expect(within(dialog).getByText("Open the command palette")).toBeVisible();
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());

    await user.keyboard("{Control>}k{/Control}");
    const input = await screen.findByRole("combobox", { name: "Search the console" });
    await user.type(input, "?");
    expect(input).toHaveValue("?");
    expect(screen.queryByRole("dialog", { name: "Keyboard shortcuts" })).not.toBeInTheDocument();
  });
});
