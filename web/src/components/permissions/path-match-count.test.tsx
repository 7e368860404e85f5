import type { PermissionRuleInput } from "@keyhold/contract";
import { globMatches } from "@keyhold/contract/permission-engine";
import { screen, within } from "@testing-library/react";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { json, mockFetch, type RecordedRequest } from "@/testing/fetch-mock";
import { project } from "@/testing/fixtures";
import { renderRoutes } from "@/testing/render";
import { PermissionRulesEditor } from "./permission-rules-editor";

afterEach(() => vi.unstubAllGlobals());

const PROJECT = "b3a1c2d4-0000-4000-8000-000000000021";
const stamp = "2026-01-01T00:00:00.000Z";

/** Every folder of each environment, as a recursive listing answers them. */
const folders: Record<string, string[]> = {
  dev: ["/app", "/app/x", "/other"],
  prod: ["/app", "/app/a", "/app/a/b", "/app/c", "/apps", "/svc"],
};

function server() {
  return mockFetch((request: RecordedRequest) => {
    const url = new URL(request.url, "http://console");
    if (url.pathname === `/api/v1/workspace/${PROJECT}`)
      return json(200, { workspace: project(PROJECT, ["dev", "prod"]) });
    if (url.pathname === "/api/v1/folders" && url.searchParams.get("recursive") === "true") {
      const paths = folders[url.searchParams.get("environment") ?? ""] ?? [];
      return json(200, {
        folders: paths.map((path) => ({
          id: `folder-${path}`,
          name: path.split("/").at(-1),
          version: 1,
          createdAt: stamp,
          updatedAt: stamp,
          envId: "env",
          parentId: "root",
          relativePath: path,
        })),
      });
    }
    return json(404, { message: `unexpected ${request.method} ${url.pathname}` });
  });
}

function Harness({ initial }: { initial: PermissionRuleInput[] }) {
  const [rules, setRules] = useState<PermissionRuleInput[]>(initial);
  return <PermissionRulesEditor value={rules} onChange={setRules} projectId={PROJECT} />;
}

function renderEditor(conditions: PermissionRuleInput["conditions"]) {
  const initial = [{ subject: "secrets", action: ["read"], conditions }];
  return renderRoutes([{ path: "/", element: <Harness initial={initial} /> }]);
}

const secrets = () => screen.getByRole("group", { name: "Secrets" });
/** What the engine says a glob matches in one environment, folders and "/" alike. */
const engineCount = (pattern: string, environment: string) =>
  ["/", ...(folders[environment] ?? [])].filter((path) => globMatches(pattern, path)).length;

// The grid renders per keystroke; a loaded machine needs more than the default five seconds.
describe("folder counts under a path condition", { timeout: 20_000 }, () => {
  it("follows the typed glob with the engine's answer: /app/* is one level, /app/** the whole tree", async () => {
    const { requests } = server();
    const { user } = renderEditor({ secretPath: { $glob: "" } });
    expect(
      await within(secrets()).findByText("Type a folder path or glob to see which folders it matches."),
    ).toBeVisible();

    const input = screen.getByLabelText("Secrets rule 1, condition 1: value");
    await user.type(input, "/app/*");
    expect(await within(secrets()).findByText("Matches 1 folder in dev, 2 in prod.")).toBeVisible();
    expect(engineCount("/app/*", "prod")).toBe(2);
    expect(engineCount("/app/*", "dev")).toBe(1);

    await user.type(input, "*");
    expect(await within(secrets()).findByText("Matches 2 folders in dev, 4 in prod.")).toBeVisible();
    expect([engineCount("/app/**", "dev"), engineCount("/app/**", "prod")]).toEqual([2, 4]);

    // The folders themselves, on expand.
    await user.click(within(secrets()).getByText("Show the folders"));
    const list = within(secrets()).getByRole("list", { name: "Matching folders" });
    expect(
      within(list)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(["dev/app", "dev/app/x", "prod/app", "prod/app/a", "prod/app/a/b", "prod/app/c"]);

    await user.clear(input);
    await user.type(input, "/nowhere/**");
    expect(await within(secrets()).findByText("Matches no folder in this project.")).toBeVisible();
    // The folders are read once, not per keystroke.
    expect(requests.filter((request) => request.url.includes("/api/v1/folders"))).toHaveLength(2);
  });

  it("counts only the environments the rule's environment condition leaves", async () => {
    server();
    const { user } = renderEditor({ environment: { $eq: "prod" }, secretPath: { $in: ["/app", "/svc", "/none"] } });
    expect(await within(secrets()).findByText("Matches 2 folders in prod.")).toBeVisible();

    await user.selectOptions(screen.getByLabelText("Secrets rule 1, condition 1: operator"), "$ne");
    expect(await within(secrets()).findByText("Matches 1 folder in dev.")).toBeVisible();
  });
});
