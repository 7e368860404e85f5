import type { IdentityPrivilege, Project, ProjectIdentityMembership, ProjectRole } from "@keyhold/contract";
import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ROLES_ONLY_TEXT } from "@/components/permissions/roles-only-notice";
import { errorBody, json, mockFetch, type RecordedRequest } from "@/testing/fetch-mock";
import { ORG_ID } from "@/testing/fixtures";
import { renderRoutes } from "@/testing/render";
import RoleChangePreview from "@/features/roles/components/role-change-preview";
import EffectiveAccess from "./effective-access";

afterEach(() => {
  vi.unstubAllGlobals();
});

const PROJECT = "5e5e5e5e-0000-4000-8000-000000000001";
const BOT = "0b8a5f0e-3c2d-4e1f-8a9b-7c6d5e4f3a21";
const PRIVILEGE = "7c7c7c7c-0000-4000-8000-000000000001";
const at = "2026-01-01T00:00:00.000Z";
const LIST = "/api/v2/identity-project-additional-privilege";

const project: Project = {
  id: PROJECT,
  _id: PROJECT,
  name: "payments",
  slug: "payments",
  type: "secret-manager",
  orgId: ORG_ID,
  version: 3,
  pitVersionLimit: 10,
  secretSharing: true,
  showSnapshotsLegacy: false,
  createdAt: at,
  updatedAt: at,
  environments: [
    { id: "e1", name: "Development", slug: "dev" },
    { id: "e2", name: "Production", slug: "prod" },
  ],
};

const viewer: ProjectRole = {
  id: "6a6a6a6a-0000-4000-8000-000000000001",
  name: "Viewer",
  slug: "viewer",
  permissions: [{ subject: "secrets", action: ["read"], conditions: { environment: "dev" } }],
  createdAt: at,
  updatedAt: at,
  projectId: PROJECT,
};

const prodRead: IdentityPrivilege = {
  id: PRIVILEGE,
  slug: "prod-read",
  isTemporary: false,
  temporaryMode: null,
  temporaryRange: null,
  temporaryAccessStartTime: null,
  temporaryAccessEndTime: null,
  permissions: [{ subject: "secrets", action: ["read"], conditions: { environment: "prod" } }],
  createdAt: at,
  updatedAt: at,
};
const { permissions: _rules, ...prodReadSummary } = prodRead;

/** The BFF as the console sees it, with the identity's privilege list answered by `privileges`. */
function server(privileges: () => Response) {
  return mockFetch((request: RecordedRequest) => {
    const url = new URL(request.url, "http://console.test");
    if (url.pathname === `/api/v1/workspace/${PROJECT}`) return json(200, { workspace: project });
    if (url.pathname === "/api/v1/folders") return json(200, { folders: [] });
    if (url.pathname === `/api/v2/workspace/${PROJECT}/roles/slug/viewer`) return json(200, { role: viewer });
    if (url.pathname === `/api/v2/workspace/${PROJECT}/identity-memberships`) {
      return json(200, {
        identityMemberships: [
          {
            id: "8d8d8d8d-0000-4000-8000-000000000001",
            identityId: BOT,
            createdAt: at,
            updatedAt: at,
            roles: [{ id: "r1", role: "viewer", isTemporary: false }],
            identity: { id: BOT, name: "ci-bot", authMethods: [] },
            project: { id: PROJECT, name: "payments" },
          },
        ] satisfies ProjectIdentityMembership[],
        totalCount: 1,
      });
    }
    if (url.pathname === `/api/v1/workspace/${PROJECT}/memberships`) return json(200, { memberships: [] });
    if (url.pathname === LIST) return privileges();
    if (url.pathname === `${LIST}/${PRIVILEGE}`) return json(200, { privilege: prodRead });
    return json(404, errorBody(404, "NotFound", `Route ${request.method}:${url.pathname} not found`));
  });
}

const routes = [{ path: "/", element: <EffectiveAccess projectId={PROJECT} identityId={BOT} /> }];
const decidingIn = (env: string) => screen.getByRole("list", { name: `Rules deciding in ${env}` });

describe("EffectiveAccess", () => {
  it("counts roles only, and says so, on a server with no privilege list", async () => {
    const { requests } = server(() =>
      json(404, errorBody(404, "NotFound", `Route GET:${LIST}?identityId=${BOT}&projectId=${PROJECT} not found`)),
    );
    renderRoutes(routes);
    expect(await screen.findByRole("note")).toHaveTextContent(ROLES_ONLY_TEXT);
    // The roles' answers are still shown: the viewer role reads dev, nothing reads prod.
    expect(within(decidingIn("dev")).getByText(/role Viewer|viewer/i)).toBeVisible();
    expect(screen.queryByRole("list", { name: "Rules deciding in prod" })).toBeNull();
    expect(screen.queryByRole("alert")).toBeNull();
    expect(requests.some((r) => r.url.includes(`${LIST}/`))).toBe(false);
  });

  it("counts a privilege whose rules the list carries (an older server's v1 list), with no read by id", async () => {
    const { requests } = server(() => json(200, { privileges: [prodRead] }));
    renderRoutes(routes);
    expect(
      await within(await screen.findByRole("list", { name: "Rules deciding in prod" })).findByText(/prod-read/),
    ).toBeVisible();
    expect(screen.queryByRole("note")).toBeNull();
    expect(requests.some((r) => r.url.includes(`${LIST}/`))).toBe(false);
  });

  it("reads each privilege's rules by id when the list leaves them out", async () => {
    const { requests } = server(() => json(200, { privileges: [prodReadSummary] }));
    renderRoutes(routes);
    expect(
      await within(await screen.findByRole("list", { name: "Rules deciding in prod" })).findByText(/prod-read/),
    ).toBeVisible();
    expect(screen.queryByRole("note")).toBeNull();
    expect(
      requests.filter((r) => new URL(r.url, "http://console.test").pathname === `${LIST}/${PRIVILEGE}`),
    ).toHaveLength(1);
  });

  it("shows an error, never a roles-only answer, when the list fails otherwise", async () => {
    server(() => json(403, errorBody(403, "PermissionDenied", "You are not allowed to read identities")));
    renderRoutes(routes);
    expect(await screen.findByRole("alert")).toHaveTextContent("The access could not be worked out");
    expect(screen.queryByRole("note")).toBeNull();
  });
});

/** Emptying the viewer role, which the identity holds: it loses reading dev unless a privilege covers it. */
describe("RoleChangePreview", () => {
  const preview = [
    {
      path: "/",
      element: (
        <RoleChangePreview projectId={PROJECT} role={{ id: viewer.id, slug: "viewer", name: "Viewer" }} draft={[]} />
      ),
    },
  ];
  const devRead = {
    ...prodRead,
    permissions: [{ subject: "secrets", action: ["read"], conditions: { environment: "dev" } }],
  };

  it("counts the holder's roles only, and says so, on a server with no privilege list", async () => {
    server(() => json(404, errorBody(404, "NotFound", `Route GET:${LIST} not found`)));
    renderRoutes(preview);
    expect(await screen.findByRole("note")).toHaveTextContent(ROLES_ONLY_TEXT);
    expect(screen.getByText(/ci-bot/)).toBeVisible();
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("counts a privilege the list carries: the loss it covers is no loss, and no notice", async () => {
    server(() => json(200, { privileges: [devRead] }));
    renderRoutes(preview);
    expect(await screen.findByText(/nobody's access to secrets changes|No change/i)).toBeVisible();
    expect(screen.queryByRole("note")).toBeNull();
    expect(screen.queryByText(/ci-bot/)).toBeNull();
  });
});
