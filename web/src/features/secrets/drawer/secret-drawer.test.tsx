import type { SecretDetail, SecretVersion } from "@keyhold/contract";
import { act, screen, waitFor, within } from "@testing-library/react";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { errorBody, json, mockFetch, type RecordedRequest } from "@/testing/fetch-mock";
import { renderRoutes } from "@/testing/render";
import { SecretDrawer } from "./secret-drawer";

afterEach(() => vi.unstubAllGlobals());

const PROJECT = "b3a1c2d4-0000-4000-8000-000000000001";
const SECRET_ID = "b3a1c2d4-0000-4000-8000-0000000000a1";
const at = (minute: number) => `2026-11-23T16:${String(minute).padStart(2, "0")}:00.000Z`;
const tag = (id: string, slug: string) => ({
  id,
  slug,
  name: slug,
  color: null,
  projectId: PROJECT,
  createdAt: at(0),
  updatedAt: at(0),
});

function secret(overrides: Partial<SecretDetail> = {}): SecretDetail {
  return {
    id: SECRET_ID,
    _id: SECRET_ID,
    workspace: PROJECT,
    environment: "dev",
    version: 3,
    type: "shared",
    secretKey: "DATABASE_URL",
    secretValue: "postgres://app:third@db/main",
    secretComment: "primary database",
    secretReminderNote: null,
    secretReminderRepeatDays: null,
    skipMultilineEncoding: false,
    createdAt: at(1),
    updatedAt: at(3),
    secretValueHidden: false,
    secretPath: "/",
    tags: [{ id: "t1", slug: "backend", name: "backend" }],
    secretMetadata: [{ key: "owner", value: "payments" }],
    ...overrides,
  };
}

function version(n: number, value: string, comment = "primary database"): SecretVersion {
  return {
    id: `b3a1c2d4-0000-4000-8000-00000000010${n}`,
    _id: `b3a1c2d4-0000-4000-8000-00000000010${n}`,
    workspace: PROJECT,
    environment: "dev",
    version: n,
    type: "shared",
    secretKey: "DATABASE_URL",
    secretValue: value,
    secretComment: comment,
    skipMultilineEncoding: false,
    createdAt: at(n),
    updatedAt: at(n),
    actor: { actorId: "a1", actorType: "identity", name: "deploy-bot", membershipId: null, groupId: null },
    secretValueHidden: false,
  };
}

const versions = [
  version(3, "postgres://app:third@db/main"),
  version(2, "postgres://app:second@db/main", "rotated"),
  version(1, "postgres://app:first@db/main"),
];
const canEdit = [
  { subject: "secrets", action: ["describeSecret", "readValue", "edit"] },
  { subject: "tags", action: ["read", "create"] },
  { subject: "secret-rollback", action: ["read"] },
];

interface ServerOptions {
  rules?: unknown[];
  get?: () => Response;
  tags?: () => Response;
  patch?: (req: RecordedRequest) => Response;
  versionsAnswer?: () => Response;
}

function server({ rules = canEdit, get, tags, patch, versionsAnswer }: ServerOptions = {}) {
  return mockFetch((req) => {
    const url = new URL(req.url, "http://console");
    if (url.pathname === `/api/v1/workspace/${PROJECT}/permissions`) {
      return json(200, { data: { permissions: rules, membership: { id: "m1", roles: [] } } });
    }
    if (url.pathname === `/api/v1/workspace/${PROJECT}/tags`) {
      return tags ? tags() : json(200, { workspaceTags: [tag("t1", "backend"), tag("t2", "payments")] });
    }
    if (url.pathname === `/api/v1/secret/${SECRET_ID}/secret-versions`) {
      return versionsAnswer ? versionsAnswer() : json(200, { secretVersions: versions });
    }
    if (url.pathname.startsWith("/api/v3/secrets/raw/") && req.method === "GET") {
      return get ? get() : json(200, { secret: secret() });
    }
    if (url.pathname.startsWith("/api/v3/secrets/raw/") && req.method === "PATCH") {
      return patch ? patch(req) : json(200, { secret: secret({ version: 4 }) });
    }
    return json(404, errorBody(404, "NotFound", `unexpected ${req.method} ${req.url}`));
  });
}

function Harness() {
  const [open, setOpen] = useState(true);
  return (
    <>
      <p>{open ? "drawer open" : "drawer closed"}</p>
      <SecretDrawer
        projectId={PROJECT}
        environment="dev"
        secretPath="/"
        secretKey="DATABASE_URL"
        open={open}
        onOpenChange={setOpen}
      />
    </>
  );
}

function renderDrawer() {
  return renderRoutes([{ path: "/", element: <Harness /> }]);
}

const patches = (requests: RecordedRequest[]) =>
  requests.filter((r) => r.method === "PATCH").map((r) => JSON.parse(r.body ?? "{}") as Record<string, unknown>);

describe("SecretDrawer", () => {
  it("reads the secret and keeps its value out of the page until revealed", async () => {
    server();
    const { user } = renderDrawer();
    const dialog = await screen.findByRole("dialog", { name: "DATABASE_URL" });
    expect(await within(dialog).findByLabelText("Name")).toHaveValue("DATABASE_URL");
    expect(dialog).not.toHaveTextContent("postgres://");
    expect(within(dialog).queryByRole("textbox", { name: "Value" })).toBeNull();
    await user.click(within(dialog).getByRole("button", { name: "Reveal value" }));
    expect(within(dialog).getByRole("textbox", { name: "Value" })).toHaveValue("postgres://app:third@db/main");
  });

  it("masks a revealed value again when the window loses focus, keeping what was typed", async () => {
    server();
    const { user } = renderDrawer();
    const dialog = await screen.findByRole("dialog", { name: "DATABASE_URL" });
    await user.click(await within(dialog).findByRole("button", { name: "Reveal value" }));
    const value = within(dialog).getByRole("textbox", { name: "Value" });
    await user.clear(value);
    await user.type(value, "typed");
    act(() => {
      window.dispatchEvent(new Event("blur"));
    });
    expect(within(dialog).queryByRole("textbox", { name: "Value" })).toBeNull();
    expect(dialog).not.toHaveTextContent("typed");
    await user.click(within(dialog).getByRole("button", { name: "Reveal value" }));
    expect(within(dialog).getByRole("textbox", { name: "Value" })).toHaveValue("typed");
  });

  it("saves only what changed: the comment, a multiline value with its encoding flag, a tag and a metadata row", async () => {
    const { requests } = server();
    const { user } = renderDrawer();
    const dialog = await screen.findByRole("dialog", { name: "DATABASE_URL" });
    await user.clear(await within(dialog).findByLabelText("Comment"));
    await user.type(within(dialog).getByLabelText("Comment"), "replica");
    await user.click(within(dialog).getByRole("button", { name: "Reveal value" }));
    const value = within(dialog).getByRole("textbox", { name: "Value" });
    await user.clear(value);
    await user.type(value, "line one{Enter}line two");
    await user.click(within(dialog).getByRole("switch", { name: "Skip multiline encoding" }));
    await user.click(await within(dialog).findByRole("checkbox", { name: "payments" }));
    await user.click(within(dialog).getByRole("button", { name: "Add metadata" }));
    await user.type(within(dialog).getByRole("textbox", { name: "Metadata key 2" }), "tier");
    await user.type(within(dialog).getByRole("textbox", { name: "Metadata value 2" }), "1");
    await user.click(within(dialog).getByRole("button", { name: "Save changes" }));

    await waitFor(() => expect(patches(requests)).toHaveLength(1));
    expect(patches(requests)[0]).toEqual({
      workspaceId: PROJECT,
      environment: "dev",
      secretPath: "/",
      secretValue: "line one\nline two",
      skipMultilineEncoding: true,
      secretComment: "replica",
      tagIds: ["t1", "t2"],
      secretMetadata: [
        { key: "owner", value: "payments" },
        { key: "tier", value: "1" },
      ],
    });
    expect(requests.find((r) => r.method === "PATCH")?.url).toBe("/api/v3/secrets/raw/DATABASE_URL");
  });

  it("shows the server's reason for a refused rename on the name field", async () => {
    server({
      patch: () => json(400, errorBody(400, "BadRequest", "Secret with the new name already exists")),
    });
    const { user } = renderDrawer();
    const dialog = await screen.findByRole("dialog", { name: "DATABASE_URL" });
    const name = await within(dialog).findByLabelText("Name");
    await user.clear(name);
    await user.type(name, "TAKEN");
    await user.click(within(dialog).getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(name).toHaveAccessibleDescription("Secret with the new name already exists"));
    expect(name).toHaveAttribute("aria-invalid", "true");
  });

  it("asks before closing with unsaved changes, and closes at once without them", async () => {
    server();
    const { user } = renderDrawer();
    const dialog = await screen.findByRole("dialog", { name: "DATABASE_URL" });
    await user.type(await within(dialog).findByLabelText("Comment"), " (old)");
    await user.keyboard("{Escape}");
    const ask = await screen.findByRole("alertdialog", { name: "Discard unsaved changes?" });
    await user.click(within(ask).getByRole("button", { name: "Cancel" }));
    expect(screen.getByText("drawer open")).toBeInTheDocument();
    expect(within(dialog).getByLabelText("Comment")).toHaveValue("primary database (old)");

    await user.click(within(dialog).getByRole("button", { name: "Discard changes" }));
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.getByText("drawer closed")).toBeInTheDocument());
  });

  it("keeps the secret's own tags when the server does not list the project's", async () => {
    server({ tags: () => json(404, errorBody(404, "NotFound", "Route GET:/api/v1/workspace/x/tags not found")) });
    renderDrawer();
    const dialog = await screen.findByRole("dialog", { name: "DATABASE_URL" });
    expect(
      await within(dialog).findByText("This server does not list the project's tags; the secret's own are shown."),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole("checkbox", { name: "backend" })).toBeChecked();
    expect(within(dialog).queryByRole("alert")).toBeNull();
  });

  it("says when the secret does not exist", async () => {
    server({ get: () => json(404, errorBody(404, "NotFound", "Secret with name 'DATABASE_URL' not found")) });
    renderDrawer();
    expect(await screen.findByRole("heading", { name: "Secret not found" })).toBeInTheDocument();
  });

  it("keeps Save inert with the reason when the caller may not edit secrets", async () => {
    server({ rules: [{ subject: "secrets", action: ["describeSecret", "readValue"] }] });
    const { user } = renderDrawer();
    const dialog = await screen.findByRole("dialog", { name: "DATABASE_URL" });
    await user.type(await within(dialog).findByLabelText("Comment"), "!");
    const save = within(dialog).getByRole("button", { name: "Save changes" });
    await waitFor(() => expect(save).toHaveAttribute("aria-disabled", "true"));
    expect(save).toHaveAccessibleDescription("Your project permissions do not include “Edit” on secrets.");
  });
});

describe("SecretDrawer version history", () => {
  it("says in one line when the server gives versions only to a user's session", async () => {
    server({
      versionsAnswer: () =>
        json(
          403,
          errorBody(
            403,
            "UserSessionOnly",
            "This server answers this only to a user's session, not to a machine identity.",
          ),
        ),
    });
    const { user } = renderDrawer();
    const dialog = await screen.findByRole("dialog", { name: "DATABASE_URL" });
    await user.click(within(dialog).getByRole("tab", { name: "Version history" }));
    expect(
      await within(dialog).findByText(
        "Not available: This server gives a secret's versions only to a user's session, not to a machine identity.",
      ),
    ).toBeInTheDocument();
    expect(within(dialog).queryByRole("alert")).toBeNull();
  });

  it("lists the versions with their actor, a masked diff until revealed, and the comment's diff", async () => {
    server();
    const { user } = renderDrawer();
    const dialog = await screen.findByRole("dialog", { name: "DATABASE_URL" });
    await user.click(within(dialog).getByRole("tab", { name: "Version history" }));
    const list = await within(dialog).findByRole("list", { name: "Versions" });
    expect(
      within(list)
        .getAllByRole("button", { expanded: false })
        .map((b) => b.textContent),
    ).toEqual([expect.stringMatching(/^Version 2.*deploy-bot$/), expect.stringMatching(/^Version 1.*deploy-bot$/)]);
    await user.click(within(list).getByRole("button", { name: /^Version 2/ }));
    const valueDiff = within(dialog).getByRole("list", { name: "Value: version 1 → version 2" });
    expect(valueDiff).not.toHaveTextContent("first");
    expect(
      within(valueDiff)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual([expect.stringContaining("Removed: hidden"), expect.stringContaining("Added: hidden")]);
    expect(within(dialog).getByRole("list", { name: "Comment: version 1 → version 2" })).toHaveTextContent(
      "Added: rotated",
    );

    await user.click(within(dialog).getByRole("button", { name: "Reveal values" }));
    expect(
      within(valueDiff)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(["1−Removed: postgres://app:first@db/main", "1+Added: postgres://app:second@db/main"]);
    const changed = valueDiff.querySelectorAll("mark");
    expect([...changed].map((mark) => mark.textContent)).toEqual(["first", "second"]);

    await user.click(within(dialog).getByRole("radio", { name: "Current value" }));
    expect(within(dialog).getByRole("list", { name: "Value: version 2 → current" })).toHaveTextContent(
      "Added: postgres://app:third@db/main",
    );

    // The first version has nothing before it: its value is shown on its own.
    await user.click(within(list).getByRole("button", { name: /^Version 1/ }));
    await user.click(within(dialog).getByRole("radio", { name: "This version alone" }));
    expect(
      within(within(dialog).getByRole("list", { name: "Value of version 1" }))
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(["1 Unchanged: postgres://app:first@db/main"]);
  });

  it("restores an old version after confirming, as an update with that version's value", async () => {
    const { requests } = server();
    const { user } = renderDrawer();
    const dialog = await screen.findByRole("dialog", { name: "DATABASE_URL" });
    await user.click(within(dialog).getByRole("tab", { name: "Version history" }));
    await user.click(await within(dialog).findByRole("button", { name: /^Version 1/ }));
    await user.click(within(dialog).getByRole("button", { name: "Restore version 1" }));
    const confirm = await screen.findByRole("alertdialog", { name: "Restore version 1?" });
    expect(patches(requests)).toHaveLength(0);
    await user.click(within(confirm).getByRole("button", { name: "Restore" }));
    await waitFor(() => expect(patches(requests)).toHaveLength(1));
    expect(patches(requests)[0]).toEqual({
      workspaceId: PROJECT,
      environment: "dev",
      secretPath: "/",
      secretValue: "postgres://app:first@db/main",
    });
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
  });
});
