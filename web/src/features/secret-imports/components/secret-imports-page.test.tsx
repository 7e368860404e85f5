import type { SecretImport } from "@keyhold/contract";
import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { errorBody, json, mockFetch, type RecordedRequest } from "@/testing/fetch-mock";
import { ORG_ID } from "@/testing/fixtures";
import { renderRoutes } from "@/testing/render";
import { SecretImportsPage } from "./secret-imports-page";

afterEach(() => vi.unstubAllGlobals());

const PROJECT = "b3a1c2d4-0000-4000-8000-000000000001";
const routes = [{ path: "/projects/:projectId/secret-imports", element: <SecretImportsPage /> }];
const path = `/projects/${PROJECT}/secret-imports?environment=dev`;
const stamp = "2026-01-01T00:00:00.000Z";

const project = {
  id: PROJECT,
  _id: PROJECT,
  name: "Payments",
  description: null,
  type: "secret-manager",
  slug: "payments",
  orgId: ORG_ID,
  createdAt: stamp,
  updatedAt: stamp,
  version: 3,
  pitVersionLimit: 10,
  secretSharing: true,
  showSnapshotsLegacy: false,
  environments: ["dev", "staging", "prod"].map((slug) => ({ name: slug.toUpperCase(), slug, id: `${slug}-id` })),
};

function secretImport(slug: string, position: number, importPath = "/"): SecretImport {
  return {
    id: `b3a1c2d4-0000-4000-8000-00000000020${position}`,
    version: 1,
    importPath,
    position,
    createdAt: stamp,
    updatedAt: stamp,
    folderId: "b3a1c2d4-0000-4000-8000-000000000300",
    importEnv: { name: slug.toUpperCase(), slug, id: `${slug}-id` },
  };
}

function secret(environment: string, secretKey: string) {
  return {
    id: `${environment}-${secretKey}`,
    _id: `${environment}-${secretKey}`,
    workspace: PROJECT,
    environment,
    version: 1,
    type: "shared",
    secretKey,
    secretValue: "<hidden-by-infisical>",
    secretComment: "",
    createdAt: stamp,
    updatedAt: stamp,
    secretValueHidden: true,
  };
}

interface Server {
  imports: SecretImport[];
  rules: unknown[];
  list?: Response;
  /** Sub-folder names by `environment:path`; none elsewhere. */
  folders?: Record<string, string[]>;
}

function listedFolder(name: string) {
  return { id: `folder-${name}`, name, version: 1, createdAt: stamp, updatedAt: stamp, envId: "env", parentId: "root" };
}

/** The project, the caller's rules, the folder's imports and the keys they provide; a move answers with the new order. */
function server(state: Server) {
  return mockFetch((request: RecordedRequest) => {
    const url = new URL(request.url, "http://console");
    if (url.pathname === `/api/v1/workspace/${PROJECT}/permissions`)
      return json(200, { data: { permissions: state.rules, membership: { id: "m1", roles: [] } } });
    if (url.pathname === `/api/v1/workspace/${PROJECT}`) return json(200, { workspace: project });
    if (url.pathname === "/api/v1/folders") {
      const names = state.folders?.[`${url.searchParams.get("environment")}:${url.searchParams.get("path")}`] ?? [];
      return json(200, { folders: names.map(listedFolder) });
    }
    if (url.pathname === "/api/v1/secret-imports" && request.method === "GET")
      return state.list ?? json(200, { message: "ok", secretImports: state.imports });
    if (url.pathname === "/api/v3/secrets/raw") {
      const imports = [...state.imports]
        .sort((a, b) => a.position - b.position)
        .map((i) => ({
          secretPath: "/",
          environment: i.importEnv.slug,
          secrets: [
            secret(i.importEnv.slug, "API_KEY"),
            secret(i.importEnv.slug, `${i.importEnv.slug.toUpperCase()}_ONLY`),
          ],
        }));
      return json(200, { secrets: [], imports });
    }
    if (url.pathname.startsWith("/api/v1/secret-imports/") && request.method === "PATCH") {
      const id = url.pathname.split("/").pop();
      const { position } = JSON.parse(request.body ?? "{}").import as { position: number };
      const moved = state.imports.find((i) => i.id === id);
      if (!moved) return json(400, errorBody(400, "BadRequest", "Secret import not found"));
      const others = state.imports.filter((i) => i !== moved).sort((a, b) => a.position - b.position);
      others.splice(position - 1, 0, moved);
      state.imports = others.map((i, index) => ({ ...i, position: index + 1 }));
      return json(200, { message: "ok", secretImport: { ...moved, position } });
    }
    return json(404, errorBody(404, "NotFound", `unexpected ${request.method} ${request.url}`));
  });
}

/** The caller's rules have arrived once no control says it is still checking them. */
async function waitForRules() {
  await vi.waitFor(() => expect(screen.queryAllByText("Checking your permissions in this project…")).toHaveLength(0));
}

const everything = [{ subject: "secret-imports", action: ["read", "create", "edit", "delete"] }];

describe("SecretImportsPage", () => {
  it("lists the imports in position order with the keys each provides, the later import winning a shared key", async () => {
    server({ imports: [secretImport("prod", 2), secretImport("staging", 1)], rules: everything });
    renderRoutes(routes, { path });
    const list = await screen.findByRole("list", { name: "Imports of dev:/" });
    await waitForRules();
    expect(
      within(list)
        .getAllByRole("button", { name: /^Reorder / })
        .map((b) => b.getAttribute("aria-label")),
    ).toEqual(["Reorder staging:/, position 1 of 2", "Reorder prod:/, position 2 of 2"]);
    const staging = await screen.findByRole("list", { name: "Keys from staging:/" });
    expect(within(staging).getByText("API_KEY").closest("li")).toHaveTextContent("overridden by prod:/");
    const prod = screen.getByRole("list", { name: "Keys from prod:/" });
    expect(within(prod).getByText("API_KEY").closest("li")).not.toHaveTextContent("overridden");
  });

  it("moves an import one step with a single update carrying only its new position, then shows the server's order", async () => {
    const { requests } = server({ imports: [secretImport("staging", 1), secretImport("prod", 2)], rules: everything });
    const { user } = renderRoutes(routes, { path });
    await screen.findByRole("button", { name: "Move prod:/ up" });
    await waitForRules();
    const list = screen.getByRole("list", { name: "Imports of dev:/" });
    // The keys are known, so the move that hands API_KEY to staging:/ is shown before it is sent.
    await vi.waitFor(() => expect(within(list).getAllByText("API_KEY")).toHaveLength(2));
    await user.click(screen.getByRole("button", { name: "Move prod:/ up" }));
    const preview = await screen.findByRole("alertdialog", { name: "Move prod:/ to position 1?" });
    expect(within(preview).getByRole("listitem")).toHaveTextContent("API_KEY: from staging:/, not prod:/");
    expect(requests.filter((r) => r.method === "PATCH")).toHaveLength(0);
    await user.click(within(preview).getByRole("button", { name: "Move import" }));
    await vi.waitFor(() =>
      expect(
        within(list)
          .getAllByRole("button", { name: /^Reorder / })
          .map((b) => b.getAttribute("aria-label")),
      ).toEqual(["Reorder prod:/, position 1 of 2", "Reorder staging:/, position 2 of 2"]),
    );
    const patches = requests.filter((r) => r.method === "PATCH");
    expect(patches).toHaveLength(1);
    expect(JSON.parse(patches[0]?.body ?? "")).toEqual({
      workspaceId: PROJECT,
      environment: "dev",
      path: "/",
      import: { position: 1 },
    });
    expect(await screen.findByText("Moved import prod:/ to position 1 of 2.")).toBeInTheDocument();
  });

  it("keeps add, reorder and remove focusable but inert, with the reason, when the caller may only read", async () => {
    const { requests } = server({
      imports: [secretImport("staging", 1), secretImport("prod", 2)],
      rules: [{ subject: "secret-imports", action: ["read"] }],
    });
    const { user } = renderRoutes(routes, { path });
    const up = await screen.findByRole("button", { name: "Move prod:/ up" });
    await waitForRules();
    expect(up).toHaveAttribute("aria-disabled", "true");
    expect(up).toHaveAccessibleDescription("Your project permissions do not include “Edit” on secret imports.");
    await user.click(up);
    expect(requests.filter((r) => r.method === "PATCH")).toHaveLength(0);
    expect(screen.getByRole("button", { name: "Reorder prod:/, position 2 of 2" })).toHaveAttribute(
      "aria-disabled",
      "true",
    );
    expect(screen.getByRole("button", { name: "Remove import prod:/" })).toHaveAccessibleDescription(
      "Your project permissions do not include “Delete” on secret imports.",
    );
    expect(screen.getByRole("button", { name: "Add import" })).toHaveAccessibleDescription(
      "Your project permissions do not include “Create” on secret imports.",
    );
  });

  it("says the first import cannot move up and the last cannot move down", async () => {
    server({ imports: [secretImport("staging", 1), secretImport("prod", 2)], rules: everything });
    renderRoutes(routes, { path });
    expect(await screen.findByRole("button", { name: "Move staging:/ up" })).toHaveAttribute("aria-disabled", "true");
    await waitForRules();
    expect(screen.getByRole("button", { name: "Move staging:/ down" })).not.toHaveAttribute("aria-disabled");
    expect(screen.getByRole("button", { name: "Move prod:/ down" })).toHaveAccessibleDescription(/Already last/);
  });

  it("marks an import whose source folder does not exist, and only that one", async () => {
    server({
      imports: [secretImport("prod", 1, "/db"), secretImport("prod", 2, "/nope")],
      rules: everything,
      folders: { "prod:/": ["db"] },
    });
    renderRoutes(routes, { path });
    const rowOf = async (source: string) =>
      (await screen.findByRole("button", { name: new RegExp(`^Reorder ${source},`) })).closest("li");
    const nope = await rowOf("prod:/nope");
    await vi.waitFor(() =>
      expect(nope).toHaveTextContent(
        "Folder /nope does not exist in prod. This import brings no secrets until the folder is created.",
      ),
    );
    expect(await rowOf("prod:/db")).not.toHaveTextContent("does not exist");
  });

  it("offers the source environment's folders and refuses one that does not exist before asking", async () => {
    const { requests } = server({
      imports: [],
      rules: everything,
      folders: { "prod:/": ["app", "db"], "prod:/db": ["main"] },
    });
    const { user } = renderRoutes(routes, { path });
    await screen.findByRole("button", { name: "Add the first import" });
    await waitForRules();
    await user.click(screen.getByRole("button", { name: "Add the first import" }));
    const dialog = await screen.findByRole("dialog", { name: "Add import" });
    await user.selectOptions(within(dialog).getByLabelText("Source environment"), "prod");
    const folders = await within(dialog).findByRole("listbox", { name: "Folders of prod" });
    await vi.waitFor(() =>
      expect(
        within(folders)
          .getAllByRole("option")
          .map((o) => o.textContent),
      ).toEqual(["/", "/app", "/db"]),
    );
    await user.click(within(folders).getByRole("option", { name: "/db" }));
    const input = within(dialog).getByRole("combobox", { name: "Source folder path" });
    expect(input).toHaveValue("/db");
    await vi.waitFor(() =>
      expect(
        within(folders)
          .getAllByRole("option")
          .map((o) => o.textContent),
      ).toEqual(["/db", "/db/main"]),
    );

    await user.clear(input);
    await user.type(input, "/nope");
    await user.click(within(dialog).getByRole("button", { name: "Add import" }));
    expect(await within(dialog).findByText("Folder /nope does not exist in prod")).toBeInTheDocument();
    expect(input).toHaveAttribute("aria-invalid", "true");
    expect(requests.filter((r) => r.method === "POST")).toHaveLength(0);
  });

  it("shows the empty state with its action", async () => {
    server({ imports: [], rules: everything });
    renderRoutes(routes, { path });
    expect(await screen.findByRole("heading", { name: "No imports in this folder" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Add the first import" })).toBeInTheDocument();
  });

  it("says what failed, with the missing permission, when the list is refused", async () => {
    server({
      imports: [],
      rules: everything,
      list: json(403, errorBody(403, "PermissionDenied", "You are not allowed to read secret imports")),
    });
    renderRoutes(routes, { path: `/projects/${PROJECT}/secret-imports?environment=prod` });
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("You don't have permission");
    expect(alert).toHaveTextContent("You are not allowed to read secret imports");
    expect(alert).toHaveTextContent("read on secret-imports");
  });
});
