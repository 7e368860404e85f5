import {
  type ClientSecretRecord,
  type IdentityPrivilege,
  type OrgIdentityMembershipSchema,
  type Project,
  type ProjectIdentityMembership,
} from "@keyhold/contract";
import type { z } from "zod";
import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { errorBody, json, mockFetch, type RecordedRequest } from "@/testing/fetch-mock";
import { sessionKeys } from "@/lib/session";
import { ORG_ID, session } from "@/testing/fixtures";
import { renderRoutes } from "@/testing/render";
import { ExpiryRadarPage } from "./expiry-radar-page";

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const routes = [{ path: "/expiring", element: <ExpiryRadarPage /> }];
const BOT = "0b8a5f0e-3c2d-4e1f-8a9b-7c6d5e4f3a21";
const PROJECT = "p-1";
const now = Date.now();
const iso = (offset: number) => new Date(now + offset).toISOString();
const HOUR = 60 * 60 * 1000;

type IdentityPrivilegeSummary = Omit<IdentityPrivilege, "permissions">;

const privilege = (id: string, slug: string, endsIn: number): IdentityPrivilegeSummary => ({
  id: `7c7c7c7c-0000-4000-8000-00000000000${id}`,
  slug,
  isTemporary: true,
  temporaryMode: "relative",
  temporaryRange: "1h",
  temporaryAccessStartTime: iso(endsIn - HOUR),
  temporaryAccessEndTime: iso(endsIn),
  createdAt: iso(-HOUR),
  updatedAt: iso(-HOUR),
});

interface Server {
  identities?: Response;
  clientSecrets?: () => Response;
  privileges?: ReturnType<typeof privilege>[];
  /** Answers first, for the calls a test is about. */
  before?: (request: RecordedRequest) => Response | undefined;
}

function server({ identities, clientSecrets, privileges = [], before }: Server = {}) {
  return mockFetch((request: RecordedRequest) => {
    const early = before?.(request);
    if (early) return early;
    const url = new URL(request.url, "http://console.test");
    if (url.pathname === `/api/v2/organizations/${ORG_ID}/identity-memberships`) {
      return (
        identities ??
        json(200, {
          identityMemberships: [
            {
              id: "9d9c1a1e-5b5b-4c4c-8d8d-1e1e2f2f3a3a",
              role: "member",
              roleId: null,
              orgId: ORG_ID,
              createdAt: iso(-HOUR),
              updatedAt: iso(-HOUR),
              identityId: BOT,
              identity: { id: BOT, name: "ci-bot", authMethods: ["universal-auth"] },
            },
          ] satisfies z.infer<typeof OrgIdentityMembershipSchema>[],
          totalCount: 1,
        })
      );
    }
    if (url.pathname === `/api/v1/auth/universal-auth/identities/${BOT}/client-secrets`) {
      return clientSecrets?.() ?? json(200, { clientSecretData: [] });
    }
    if (url.pathname === "/api/v1/workspace") {
      return json(200, {
        workspaces: [
          {
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
            createdAt: iso(-HOUR),
            updatedAt: iso(-HOUR),
            environments: [],
          },
        ] satisfies Project[],
      });
    }
    if (url.pathname === `/api/v2/workspace/${PROJECT}/identity-memberships`) {
      return json(200, {
        identityMemberships: [
          {
            id: "8d8d8d8d-0000-4000-8000-000000000001",
            identityId: BOT,
            createdAt: iso(-HOUR),
            updatedAt: iso(-HOUR),
            roles: [{ id: "r1", role: "viewer", isTemporary: false }],
            identity: { id: BOT, name: "ci-bot", authMethods: [] },
            project: { id: PROJECT, name: "payments" },
          },
        ] satisfies ProjectIdentityMembership[],
        totalCount: 1,
      });
    }
    if (url.pathname === `/api/v1/workspace/${PROJECT}/memberships`) return json(200, { memberships: [] });
    if (url.pathname === "/api/v2/identity-project-additional-privilege") return json(200, { privileges });
    return json(404, errorBody(404, "NotFound", `Route ${request.method}:${url.pathname} not found`));
  });
}

describe("ExpiryRadarPage", () => {
  it("shows a skeleton while loading", async () => {
    mockFetch(() => new Promise<Response>(() => {}));
    renderRoutes(routes, { path: "/expiring" });
    expect(await screen.findByLabelText("Loading what ends")).toHaveAttribute("aria-busy", "true");
  });

  it("says when nothing ends at all", async () => {
    server();
    renderRoutes(routes, { path: "/expiring" });
    expect(await screen.findByRole("heading", { name: "Nothing here ends" })).toBeVisible();
    expect(screen.getByRole("button", { name: "Export .ics" })).toBeDisabled();
  });

  it("shows an error panel with a retry when the list cannot be read", async () => {
    server({ identities: json(500, errorBody(500, "InternalServerError", "Something broke")) });
    renderRoutes(routes, { path: "/expiring" });
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Could not load what ends");
    expect(within(alert).getByRole("button", { name: "Try again" })).toBeVisible();
  });

  it("lists what ends within the filter, soonest first, with counts per filter", async () => {
    server({
      privileges: [
        privilege("1", "later", 3 * 24 * HOUR),
        privilege("2", "sooner", 2 * HOUR),
        privilege("3", "gone", -HOUR),
      ],
    });
    const { user } = renderRoutes(routes, { path: "/expiring?window=24h" });
    const list = await screen.findByRole("list", { name: "Endings: Within 24 h" });
    expect(
      within(list)
        .getAllByRole("listitem")
        .map((row) => row.getAttribute("aria-label")),
    ).toEqual(["Temporary privilege sooner of ci-bot"]);
    expect(within(list).getByRole("listitem")).toHaveTextContent(/1h 59m|2h 00m/);
    const filters = screen.getByRole("group", { name: "Show" });
    expect(within(filters).getByRole("button", { name: /Expired/ })).toHaveTextContent("1");
    expect(within(filters).getByRole("button", { name: /Within 7 days/ })).toHaveTextContent("2");

    await user.click(within(filters).getByRole("button", { name: /All/ }));
    const all = await screen.findByRole("list", { name: "Endings: All" });
    expect(
      within(all)
        .getAllByRole("listitem")
        .map((row) => row.getAttribute("aria-label")),
    ).toEqual([
      "Temporary privilege gone of ci-bot",
      "Temporary privilege sooner of ci-bot",
      "Temporary privilege later of ci-bot",
    ]);
    expect(within(all).getAllByText("Expired")).toHaveLength(1);
  });

  it("names an endpoint the server does not offer, and still shows the rest", async () => {
    server({
      clientSecrets: () =>
        json(
          404,
          errorBody(
            404,
            "NotFound",
            `Route GET:/api/v1/auth/universal-auth/identities/${BOT}/client-secrets not found`,
          ),
        ),
      privileges: [privilege("2", "sooner", 2 * HOUR)],
    });
    renderRoutes(routes, { path: "/expiring" });
    const note = await screen.findByRole("region", { name: "Not shown" });
    expect(note).toHaveTextContent(
      "This server does not offer GET /api/v1/auth/universal-auth/identities/{identityId}/client-secrets: Client secrets of ci-bot is not shown.",
    );
    expect(screen.getByRole("listitem", { name: "Temporary privilege sooner of ci-bot" })).toBeVisible();
  });

  it("asks before revoking a client secret, then revokes it and reads the list again", async () => {
    const secret: ClientSecretRecord = {
      id: "5e5e5e5e-0000-4000-8000-000000000001",
      createdAt: iso(-HOUR),
      updatedAt: iso(-HOUR),
      description: "deploy",
      clientSecretPrefix: "ab12",
      clientSecretNumUses: 0,
      clientSecretNumUsesLimit: 0,
      clientSecretTTL: 2 * 3600,
      identityUAId: "5e5e5e5e-0000-4000-8000-000000000002",
      isClientSecretRevoked: false,
    };
    let revoked = false;
    const { requests } = server({
      clientSecrets: () => json(200, { clientSecretData: revoked ? [] : [secret] }),
      before: (request) => {
        if (!request.url.endsWith(`/client-secrets/${secret.id}/revoke`)) return undefined;
        revoked = true;
        return json(200, { clientSecretData: { ...secret, isClientSecretRevoked: true } });
      },
    });
    const { user } = renderRoutes(routes, { path: "/expiring" });
    // Nothing is sent before the confirmation.
    const name = "Revoke deploy (ab12…) of ci-bot";
    await user.click(await screen.findByRole("button", { name }));
    const dialog = screen.getByRole("alertdialog", { name: "Revoke this client secret?" });
    expect(requests.some((r) => r.url.endsWith("/revoke"))).toBe(false);
    await user.click(within(dialog).getByRole("button", { name: "Revoke" }));
    expect(await screen.findByRole("heading", { name: "Nothing here ends" })).toBeVisible();
    expect(requests.filter((r) => r.url.endsWith("/revoke")).map((r) => r.method)).toEqual(["POST"]);
  });

  it("says when the server has no privilege routes, and does not call them", async () => {
    const { requests } = server({ privileges: [privilege("2", "sooner", 2 * HOUR)] });
    const reason = "This server has only the older, slug-addressed identity privileges.";
    renderRoutes(
      (queryClient) => {
        queryClient.setQueryData(sessionKeys.current(), {
          ...session,
          server: { features: [{ name: "privilegesV2", available: false, reason }] },
        });
        return routes;
      },
      { path: "/expiring" },
    );
    const note = await screen.findByRole("region", { name: "Not shown" });
    expect(note).toHaveTextContent(
      "This server does not offer GET /api/v2/identity-project-additional-privilege: Temporary privileges is not shown.",
    );
    expect(await screen.findByRole("heading", { name: "Nothing here ends" })).toBeVisible();
    expect(requests.some((r) => r.url.includes("additional-privilege"))).toBe(false);
  });
});
