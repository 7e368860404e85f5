import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { UnsavedChangesGuard } from "@/components/layout/unsaved-changes-guard";
import { errorBody, json, mockFetch, type RecordedRequest } from "@/testing/fetch-mock";
import { ORG_ID } from "@/testing/fixtures";
import { renderRoutes } from "@/testing/render";
import { readSecretLocation } from "../secret-location";
import { SecretsPage } from "./secrets-page";

afterEach(() => vi.unstubAllGlobals());

// jsdom lays nothing out: the table's scroll container gets a typical size, so the virtualiser renders rows.
const sizes = { clientHeight: 640, clientWidth: 1000 } as const;
const originals = Object.keys(sizes).map(
  (name) => [name, Object.getOwnPropertyDescriptor(Element.prototype, name)] as const,
);
beforeAll(() => {
  for (const [name, value] of Object.entries(sizes)) {
    Object.defineProperty(Element.prototype, name, { configurable: true, get: () => value });
  }
});
afterAll(() => {
  for (const [name, descriptor] of originals)
    if (descriptor) Object.defineProperty(Element.prototype, name, descriptor);
});

const PROJECT = "b3a1c2d4-0000-4000-8000-000000000001";
const STAMP = "2026-01-02T03:04:05.000Z";
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

function secret(secretKey: string, tags: string[] = [], secretValue = "<hidden-by-infisical>") {
  return {
    id: `id-${secretKey}`,
    _id: `id-${secretKey}`,
    workspace: PROJECT,
    environment: "dev",
    version: 1,
    type: "shared",
    secretKey,
    secretValue,
    secretComment: `${secretKey.toLowerCase()} comment`,
    createdAt: STAMP,
    updatedAt: STAMP,
    secretPath: "/",
    secretValueHidden: secretValue === "<hidden-by-infisical>",
    tags: tags.map((slug) => ({ id: `tag-${slug}`, slug, name: slug, color: null })),
  };
}

const everything = [{ subject: "secrets", action: ["describeSecret", "readValue", "create", "edit", "delete"] }];
const describeOnly = [{ subject: "secrets", action: ["describeSecret"] }];

interface Server {
  rules?: unknown[];
  list?: Response;
  /** A server without the one-request save (a route it does not know), as an older Infisical. */
  withoutCommits?: boolean;
}

/** The project, the caller's rules, the folder's secrets and folders, and one secret's value on request. */
function server({ rules = everything, list, withoutCommits = false }: Server = {}) {
  return mockFetch((request: RecordedRequest) => {
    const url = new URL(request.url, "http://console");
    if (url.pathname === `/api/v1/workspace/${PROJECT}`) return json(200, { workspace: project });
    if (url.pathname === `/api/v1/workspace/${PROJECT}/permissions`) {
      return json(200, { data: { permissions: rules, membership: { id: "m1", roles: [] } } });
    }
    if (url.pathname === "/api/v3/secrets/raw") {
      return (
        list ??
        json(200, {
          secrets: [
            secret("DATABASE_URL", ["backend"]),
            secret("REDIS_URL", ["backend", "cache"]),
            secret("STRIPE_KEY"),
          ],
        })
      );
    }
    if (url.pathname === "/api/v1/pit/batch/commit" && request.method === "POST") {
      if (withoutCommits) {
        // As the BFF answers an October 2024 server's 404 for the route.
        return json(404, {
          reqId: "req-1",
          statusCode: 404,
          error: "NotFound",
          message: "Route POST:/api/v1/pit/batch/commit not found",
        });
      }
      const updated = [{ ...secret("REDIS_URL", [], ""), version: 2, secretValueHidden: false }];
      const commit = {
        id: "c1",
        folderId: "f1",
        actorType: "identity",
        actorMetadata: { id: "i1", name: "admin" },
        message: "Update 1 secret",
        commitId: "2",
        createdAt: "2026-11-28T12:00:00.000Z",
        envId: "e1",
      };
      return json(200, { commit, secrets: { created: [], updated, deleted: [] } });
    }
    if (url.pathname === "/api/v3/secrets/batch/raw" && request.method === "PATCH") {
      return json(200, { secrets: [{ ...secret("REDIS_URL", [], ""), version: 2, secretValueHidden: false }] });
    }
    if (url.pathname === "/api/v3/secrets/raw/REDIS_URL") {
      return json(200, { secret: secret("REDIS_URL", [], "redis://cache:6379") });
    }
    if (url.pathname === "/api/v3/secrets/raw/STRIPE_KEY") {
      return json(200, { secret: secret("STRIPE_KEY", [], "line one\nline two") });
    }
    if (url.pathname === "/api/v1/folders") return json(200, { folders: [] });
    return json(404, errorBody(404, "NotFound", `unexpected ${request.url}`));
  });
}

const routes = [{ path: "/projects/:projectId/secrets", element: <SecretsPage /> }];
const render = (search = "") => renderRoutes(routes, { path: `/projects/${PROJECT}/secrets${search}` });
const rowOf = (key: string) => screen.getByRole("button", { name: `Open ${key}` }).closest("tr") as HTMLElement;

// The first test also loads the page's modules, which takes a while on a busy machine.
describe("SecretsPage", { timeout: 20_000 }, () => {
  it("lists the first environment's secrets with values masked, asking the server to withhold them", async () => {
    const { requests } = server();
    render();
    expect(await screen.findByRole("button", { name: "Open DATABASE_URL" })).toBeInTheDocument();
    expect(within(rowOf("REDIS_URL")).getByText("Value masked")).toBeInTheDocument();
    await waitFor(() =>
      expect(within(rowOf("REDIS_URL")).getByRole("button", { name: "Reveal value of REDIS_URL" })).not.toHaveAttribute(
        "aria-disabled",
      ),
    );
    expect(within(rowOf("REDIS_URL")).getByText("Value masked")).toBeInTheDocument();
    expect(within(rowOf("REDIS_URL")).getByText("cache")).toBeInTheDocument();
    expect(screen.getByRole("status", { name: "" })).toHaveTextContent("3 secrets");
    expect(screen.getByRole("link", { name: "Development" })).toHaveAttribute("aria-current", "page");
    const list = requests.find((r) => r.url.startsWith("/api/v3/secrets/raw?"));
    expect(new URL(list?.url ?? "", "http://console").searchParams.get("viewSecretValue")).toBe("false");
    expect(new URL(list?.url ?? "", "http://console").searchParams.get("environment")).toBe("dev");
    expect(screen.queryByText("<hidden-by-infisical>")).toBeNull();
  });

  it("opens the create dialog for a link that asks for it (?create=secret), and drops the request from the URL", async () => {
    server();
    const { router } = render("?env=prod&create=secret");
    expect(await screen.findByRole("dialog", { name: "Create secret" })).toBeVisible();
    await waitFor(() => expect(router.state.location.search).toBe("?env=prod"));
  });

  it("does not open the create dialog from the URL for a caller who may not create secrets", async () => {
    server({ rules: describeOnly });
    const { router } = render("?create=secret");
    await waitFor(() => expect(router.state.location.search).toBe(""));
    expect(await screen.findByRole("button", { name: "Open DATABASE_URL" })).toBeInTheDocument();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("filters by key as one types and puts the search in the URL once typing pauses", async () => {
    server();
    const { router, user } = render();
    const search = await screen.findByRole("searchbox", { name: "Search secrets by key" });
    await screen.findByRole("button", { name: "Open STRIPE_KEY" });
    await user.type(search, "url");
    await waitFor(() => expect(screen.queryByRole("button", { name: "Open STRIPE_KEY" })).toBeNull());
    expect(screen.getByRole("button", { name: "Open DATABASE_URL" })).toBeInTheDocument();
    expect(screen.getByText("2 of 3 secrets")).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe("?q=url"));
  });

  it("keeps a keystroke typed while the search before it is on its way to the URL", async () => {
    server();
    const { router, user } = render();
    const search = await screen.findByRole("searchbox", { name: "Search secrets by key" });
    // The router applies a new URL in a transition: the next keystroke lands before it renders.
    const unsubscribe = router.subscribe((state) => {
      if (state.location.search === "?q=ur") fireEvent.change(search, { target: { value: "url" } });
    });
    await user.type(search, "ur");
    await waitFor(() => expect(router.state.location.search).toBe("?q=url"));
    unsubscribe();
    expect(search).toHaveValue("url");
    expect(screen.getByText("2 of 3 secrets")).toBeInTheDocument();
  });

  it("shows the search of a URL navigated to after typing, as back and forward do", async () => {
    server();
    const { router, user } = render("?q=redis");
    const search = await screen.findByRole("searchbox", { name: "Search secrets by key" });
    expect(search).toHaveValue("redis");
    await user.clear(search);
    await user.type(search, "url");
    await waitFor(() => expect(router.state.location.search).toBe("?q=url"));
    await act(() => router.navigate(`/projects/${PROJECT}/secrets?q=stripe`));
    expect(search).toHaveValue("stripe");
    expect(screen.getByText("1 of 3 secrets")).toBeInTheDocument();
  });

  it("narrows the table to a tag from the URL, and says when nothing matches", async () => {
    server();
    const { user } = render("?tag=cache");
    expect(await screen.findByRole("button", { name: "Open REDIS_URL" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Open DATABASE_URL" })).toBeNull();
    await user.type(screen.getByRole("searchbox", { name: "Search secrets by key" }), "stripe");
    expect(await screen.findByRole("heading", { name: "No secrets match" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Clear filters" }));
    expect(await screen.findByRole("button", { name: "Open STRIPE_KEY" })).toBeInTheDocument();
  });

  it("reads one value only when it is revealed, and forgets it when hidden again", async () => {
    const { requests } = server();
    const { user } = render();
    await screen.findByRole("button", { name: "Open REDIS_URL" });
    expect(requests.some((r) => r.url.startsWith("/api/v3/secrets/raw/"))).toBe(false);
    await user.click(screen.getByRole("button", { name: "Reveal value of REDIS_URL" }));
    expect(await within(rowOf("REDIS_URL")).findByText("redis://cache:6379")).toBeInTheDocument();
    expect(requests.filter((r) => r.url.startsWith("/api/v3/secrets/raw/")).map((r) => r.url.split("?")[0])).toEqual([
      "/api/v3/secrets/raw/REDIS_URL",
    ]);
    await user.click(screen.getByRole("button", { name: "Hide value of REDIS_URL" }));
    expect(screen.queryByText("redis://cache:6379")).toBeNull();
  });

  it("edits a value in its row: Escape leaves it, Enter stages it to save with the others, a value of several lines is left to the drawer", async () => {
    const { requests } = server();
    const { user } = render();
    await screen.findByRole("button", { name: "Open REDIS_URL" });
    const edit = () => within(rowOf("REDIS_URL")).getByRole("button", { name: "Edit value of REDIS_URL" });
    await waitFor(() => expect(edit()).not.toHaveAttribute("aria-disabled"));

    await user.click(edit());
    const input = await screen.findByRole("textbox", { name: "New value of REDIS_URL" });
    await waitFor(() => expect(input).toHaveValue("redis://cache:6379"));
    await user.clear(input);
    await user.type(input, "redis://other{Escape}");
    expect(screen.queryByRole("textbox", { name: "New value of REDIS_URL" })).toBeNull();
    expect(requests.some((r) => r.method === "PATCH")).toBe(false);

    await user.click(edit());
    const again = await screen.findByRole("textbox", { name: "New value of REDIS_URL" });
    await waitFor(() => expect(again).toHaveValue("redis://cache:6379"));
    await user.clear(again);
    await user.type(again, "redis://new:6380{Enter}");
    await waitFor(() => expect(screen.queryByRole("textbox", { name: "New value of REDIS_URL" })).toBeNull());
    // Staged, not sent: the row says so, and the page counts it.
    expect(within(rowOf("REDIS_URL")).getByText("Edited")).toBeInTheDocument();
    expect(requests.some((r) => r.method === "PATCH")).toBe(false);
    const pending = await screen.findByRole("region", { name: "Pending changes" });
    expect(pending).toHaveTextContent("1 change not saved yet");
    await user.click(within(pending).getByRole("button", { name: "Save 1 change" }));
    await waitFor(() => expect(screen.queryByRole("region", { name: "Pending changes" })).toBeNull());
    const writes = requests.filter((r) => r.method !== "GET");
    expect(writes.map((r) => `${r.method} ${r.url}`)).toEqual(["POST /api/v1/pit/batch/commit"]);
    expect(JSON.parse(writes[0]?.body ?? "{}")).toEqual({
      projectId: PROJECT,
      environment: "dev",
      secretPath: "/",
      message: "Update 1 secret",
      changes: { secrets: { update: [{ secretKey: "REDIS_URL", secretValue: "redis://new:6380" }] } },
    });

    await user.click(within(rowOf("STRIPE_KEY")).getByRole("button", { name: "Edit value of STRIPE_KEY" }));
    expect(await screen.findByText(/several lines: open the secret to edit it/)).toBeInTheDocument();
    expect(screen.queryByRole("textbox", { name: "New value of STRIPE_KEY" })).toBeNull();
  });

  it("saves through the batch endpoints when the server has no one-request save", async () => {
    const { requests } = server({ withoutCommits: true });
    const { user } = render();
    await screen.findByRole("button", { name: "Open REDIS_URL" });
    const edit = () => within(rowOf("REDIS_URL")).getByRole("button", { name: "Edit value of REDIS_URL" });
    await waitFor(() => expect(edit()).not.toHaveAttribute("aria-disabled"));
    await user.click(edit());
    const input = await screen.findByRole("textbox", { name: "New value of REDIS_URL" });
    await waitFor(() => expect(input).toHaveValue("redis://cache:6379"));
    await user.clear(input);
    await user.type(input, "redis://new:6380{Enter}");
    const pending = await screen.findByRole("region", { name: "Pending changes" });
    await user.click(within(pending).getByRole("button", { name: "Save 1 change" }));
    await waitFor(() => expect(screen.queryByRole("region", { name: "Pending changes" })).toBeNull());
    const writes = requests.filter((r) => r.method !== "GET");
    expect(writes.map((r) => `${r.method} ${r.url}`)).toEqual([
      "POST /api/v1/pit/batch/commit",
      "PATCH /api/v3/secrets/batch/raw",
    ]);
    expect(JSON.parse(writes[1]?.body ?? "{}")).toEqual({
      workspaceId: PROJECT,
      environment: "dev",
      secretPath: "/",
      secrets: [{ secretKey: "REDIS_URL", secretValue: "redis://new:6380" }],
    });
  });

  it("asks before another row's edit replaces an inline edit whose value was changed", async () => {
    server();
    const { user } = renderRoutes(
      [
        {
          path: "/projects/:projectId/secrets",
          element: (
            <UnsavedChangesGuard>
              <SecretsPage />
            </UnsavedChangesGuard>
          ),
        },
      ],
      { path: `/projects/${PROJECT}/secrets` },
    );
    await screen.findByRole("button", { name: "Open REDIS_URL" });
    const edit = (key: string) => within(rowOf(key)).getByRole("button", { name: `Edit value of ${key}` });
    await waitFor(() => expect(edit("REDIS_URL")).not.toHaveAttribute("aria-disabled"));

    // Unchanged, the edit moves to the other row at once.
    await user.click(edit("REDIS_URL"));
    await waitFor(() =>
      expect(screen.getByRole("textbox", { name: "New value of REDIS_URL" })).toHaveValue("redis://cache:6379"),
    );
    await user.click(edit("DATABASE_URL"));
    expect(await screen.findByRole("textbox", { name: "New value of DATABASE_URL" })).toBeInTheDocument();
    expect(screen.queryByRole("textbox", { name: "New value of REDIS_URL" })).toBeNull();
    expect(screen.queryByRole("alertdialog")).toBeNull();

    await user.click(edit("REDIS_URL"));
    const input = await screen.findByRole("textbox", { name: "New value of REDIS_URL" });
    await waitFor(() => expect(input).toHaveValue("redis://cache:6379"));
    await user.clear(input);
    await user.type(input, "redis://typed");
    // Its own row's Edit keeps the edit as it is.
    await user.click(edit("REDIS_URL"));
    expect(screen.queryByRole("alertdialog")).toBeNull();

    await user.click(edit("DATABASE_URL"));
    const question = await screen.findByRole("alertdialog", { name: "Discard unsaved changes?" });
    await user.click(within(question).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
    expect(screen.getByRole("textbox", { name: "New value of REDIS_URL" })).toHaveValue("redis://typed");
    expect(screen.queryByRole("textbox", { name: "New value of DATABASE_URL" })).toBeNull();

    await user.click(edit("DATABASE_URL"));
    await user.click(
      within(await screen.findByRole("alertdialog", { name: "Discard unsaved changes?" })).getByRole("button", {
        name: "Discard changes",
      }),
    );
    expect(await screen.findByRole("textbox", { name: "New value of DATABASE_URL" })).toBeInTheDocument();
    expect(screen.queryByRole("textbox", { name: "New value of REDIS_URL" })).toBeNull();
  });

  it("tells a caller who may only describe secrets that values are hidden, and reads none", async () => {
    const { requests } = server({ rules: describeOnly });
    const { user } = render();
    await screen.findByRole("button", { name: "Open REDIS_URL" });
    await waitFor(() => expect(within(rowOf("REDIS_URL")).getByText("Hidden by permission")).toBeInTheDocument());
    const reveal = within(rowOf("REDIS_URL")).getByRole("button", { name: "Reveal value of REDIS_URL" });
    expect(reveal).toHaveAttribute("aria-disabled", "true");
    expect(reveal).toHaveAccessibleDescription(/The value is hidden/);
    await user.click(reveal);
    expect(requests.some((r) => r.url.startsWith("/api/v3/secrets/raw/"))).toBe(false);
    expect(screen.getByRole("button", { name: "Create secret" })).toHaveAttribute("aria-disabled", "true");
  });

  it("says a folder does not exist in this environment, with the way back to the root", async () => {
    server({ list: json(404, errorBody(404, "NotFound", "Folder with path '/gone' not found")) });
    render("?path=/gone");
    expect(await screen.findByRole("heading", { name: "There is no folder /gone in dev" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go to the root folder" })).toHaveAttribute(
      "href",
      `/projects/${PROJECT}/secrets`,
    );
  });

  it("shows why the list could not be read", async () => {
    server({ list: json(403, errorBody(403, "PermissionDenied", "You are not allowed to describeSecret on secrets")) });
    render();
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("You don't have permission");
    expect(alert).toHaveTextContent("describeSecret on secrets");
  });

  it("lists the keys the folder's imports provide, read-only and from their source, and marks an own key that overrides one", async () => {
    const imported = (secretKey: string) => {
      const { createdAt: _c, updatedAt: _u, secretPath: _p, tags: _t, ...rest } = secret(secretKey, [], "leaked");
      return { ...rest, workspace: "", secretValueHidden: false };
    };
    const list = json(200, {
      secrets: [secret("DATABASE_URL"), secret("STRIPE_KEY")],
      imports: [
        {
          secretPath: "/shared",
          environment: "dev",
          secrets: [imported("LOG_LEVEL"), imported("STRIPE_KEY")],
        },
        { secretPath: "/db", environment: "prod", secrets: [imported("LOG_LEVEL")] },
      ],
    });
    const { requests } = server({ list });
    const { user } = render();
    await screen.findByRole("button", { name: "Open DATABASE_URL" });
    const query = new URL(requests.find((r) => r.url.startsWith("/api/v3/secrets/raw?"))?.url ?? "", "http://console");
    expect(query.searchParams.get("include_imports")).toBe("true");
    expect(screen.getByText(/3 secrets, 1 imported/)).toBeInTheDocument();

    // The later import supplies LOG_LEVEL; its row has no edit or delete, and links to where it lives.
    const row = rowOf("STRIPE_KEY").parentElement?.querySelector('[title="LOG_LEVEL"]')?.closest("tr") as HTMLElement;
    const source = within(row).getByRole("link", { name: "Imported from prod:/db" });
    const target = readSecretLocation(new URL(source.getAttribute("href") ?? "", "http://console").searchParams);
    expect([target.environment, target.secretPath]).toEqual(["prod", "/db"]);
    expect(within(row).queryByRole("button", { name: "Edit value of LOG_LEVEL" })).toBeNull();
    expect(within(row).queryByRole("button", { name: "Delete LOG_LEVEL" })).toBeNull();
    expect(within(row).getByText("Value masked")).toBeInTheDocument();
    expect(screen.queryByText("leaked")).toBeNull();
    expect(within(rowOf("STRIPE_KEY")).getByText(/Overrides/)).toHaveTextContent("Overrides dev:/shared");

    // Its value is read from the folder it lives in.
    const reveal = () => within(row).getByRole("button", { name: "Reveal value of LOG_LEVEL" });
    await waitFor(() => expect(reveal()).not.toHaveAttribute("aria-disabled"));
    await user.click(reveal());
    await waitFor(() => expect(requests.some((r) => r.url.startsWith("/api/v3/secrets/raw/LOG_LEVEL?"))).toBe(true));
    const read = new URL(
      requests.find((r) => r.url.startsWith("/api/v3/secrets/raw/LOG_LEVEL?"))?.url ?? "",
      "http://c",
    );
    expect([read.searchParams.get("environment"), read.searchParams.get("secretPath")]).toEqual(["prod", "/db"]);
  });
});
