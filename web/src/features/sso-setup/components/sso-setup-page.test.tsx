import type { BffSession, OidcSetup, OidcTestResult } from "@keyhold/contract";
import { act, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { sessionKeys } from "@/lib/session";
import { errorBody, json, mockFetch, type RecordedRequest } from "@/testing/fetch-mock";
import { IDENTITY_ID, membership, ORG_ID, session } from "@/testing/fixtures";
import { renderRoutes } from "@/testing/render";
import { SsoSetupPage } from "./sso-setup-page";
import { SsoTestPage } from "./sso-test-page";

afterEach(() => vi.unstubAllGlobals());

const routes = [
  { path: "/settings/sign-in", element: <SsoSetupPage /> },
  { path: "/sso-test", element: <SsoTestPage /> },
  { path: "/identities/:id", element: <h1>Identity page</h1> },
];
const NEW_ID = "7e57ab1e-0000-4000-8000-000000000001";
const ISSUER = "http://127.0.0.1:9400";

const testOnly: OidcSetup = {
  mode: "test-only",
  callbackUrl: "https://console.acme.test/bff/oidc/callback",
  postLogoutRedirectUrl: "https://console.acme.test/sign-in",
  issuer: ISSUER,
  clientId: "keyhold-console",
  providerName: "Acme ID",
  scopes: ["openid", "email", "profile", "offline_access", "groups"],
  clientAuth: "client_secret_basic",
  rules: [],
  credentials: true,
};
const off: OidcSetup = {
  mode: "off",
  callbackUrl: "https://console.acme.test/bff/oidc/callback",
  postLogoutRedirectUrl: "https://console.acme.test/sign-in",
  scopes: [],
  rules: [],
  credentials: true,
};

type Answer = (request: RecordedRequest) => Response | undefined;

/** The BFF and the service as the page reads them; `answer` takes a request first when it knows it. */
function server(
  setup: OidcSetup | Response,
  answer: Answer = () => undefined,
  test: () => OidcTestResult = () => ({ status: "none" }),
) {
  return mockFetch((request) => {
    const own = answer(request);
    if (own) return own;
    const path = new URL(request.url, "http://console").pathname;
    if (path === "/bff/oidc/setup") return setup instanceof Response ? setup : json(200, setup);
    if (path === "/bff/oidc/test") return json(200, test());
    if (path === `/api/v2/organizations/${ORG_ID}/identity-memberships`) {
      return json(200, {
        identityMemberships: [
          membership({
            identity: { name: "people", id: IDENTITY_ID, hasDeleteProtection: false, authMethods: ["oidc-auth"] },
          }),
        ],
        totalCount: 1,
      });
    }
    if (request.method === "POST" && path === "/api/v1/identities") {
      const body = JSON.parse(request.body ?? "{}") as { name: string };
      return json(200, {
        identity: {
          id: NEW_ID,
          name: body.name,
          authMethods: [],
          createdAt: "2026-11-28T10:00:00.000Z",
          updatedAt: "2026-11-28T10:00:00.000Z",
          hasDeleteProtection: false,
        },
      });
    }
    if (path === `/api/v1/identities/${IDENTITY_ID}`)
      return json(200, {
        identity: membership({
          identity: { name: "people", id: IDENTITY_ID, hasDeleteProtection: false, authMethods: ["oidc-auth"] },
        }),
      });
    if (path.startsWith("/api/v1/auth/oidc-auth/identities/")) return json(200, { identityOidcAuth: oidcAuth });
    return json(404, errorBody(404, "NotFound", `unexpected ${request.method} ${path}`));
  });
}
const oidcAuth = {
  id: "0a0a0a0a-0000-4000-8000-000000000001",
  identityId: NEW_ID,
  createdAt: "2026-11-28T10:00:00.000Z",
  updatedAt: "2026-11-28T10:00:00.000Z",
  accessTokenTTL: 3600,
  accessTokenMaxTTL: 3600,
  accessTokenNumUsesLimit: 0,
  accessTokenTrustedIps: [{ type: "ipv4", prefix: 0, ipAddress: "0.0.0.0" }],
  oidcDiscoveryUrl: ISSUER,
  boundIssuer: ISSUER,
  boundAudiences: "keyhold-console",
  boundClaims: {},
  boundSubject: "",
};

function withSession(change: (s: BffSession) => BffSession) {
  const rendered = renderRoutes(routes, { path: "/settings/sign-in" });
  act(() => rendered.queryClient.setQueryData(sessionKeys.current(), change(session)));
  return rendered;
}

describe("SsoSetupPage", () => {
  it("tells a member that only admins set it up", async () => {
    server(testOnly);
    withSession((s) => ({ ...s, identity: { ...s.identity, role: "member" } }));
    expect(await screen.findByRole("note")).toHaveTextContent("Only organization admins can set up single sign-on");
    expect(screen.queryByRole("region", { name: "Register Keyhold at your identity provider" })).toBeNull();
  });

  it("when off, gives what to register at the provider and the lines that configure it, and no identity step", async () => {
    server(off);
    renderRoutes(routes, { path: "/settings/sign-in" });
    expect(await screen.findByText("https://console.acme.test/bff/oidc/callback")).toBeVisible();
    expect(screen.getByRole("button", { name: "Copy redirect uri" })).toBeVisible();
    expect(screen.getByText("https://console.acme.test/sign-in")).toBeVisible();
    expect(screen.getByLabelText("Provider configuration")).toHaveTextContent("KEYHOLD_OIDC_ISSUER=");
    expect(screen.getByText("Off")).toBeVisible();
    // The scopes to allow, even before the BFF has any.
    expect(screen.getByText("offline_access")).toBeVisible();
    expect(screen.queryByRole("region", { name: "Choose the identity people sign in as" })).toBeNull();
  });

  it("creates an identity with OIDC auth bound to the provider, then gives the line that switches it on", async () => {
    const { requests } = server(testOnly);
    const { user } = renderRoutes(routes, { path: "/settings/sign-in" });
    const step = await screen.findByRole("region", { name: "Choose the identity people sign in as" });
    await user.clear(within(step).getByLabelText("Name"));
    await user.type(within(step).getByLabelText("Name"), "platform-people");
    await user.selectOptions(within(step).getByLabelText("Organization role"), "admin");
    await user.type(within(step).getByLabelText("Bound claim (optional)"), "groups");
    await user.type(within(step).getByLabelText("Allowed values"), "platform");
    await user.click(within(step).getByRole("button", { name: "Create identity with OIDC auth" }));

    expect(await within(step).findByRole("status")).toHaveTextContent("platform-people has OIDC auth for Acme ID.");
    const created = requests.find((r) => r.method === "POST" && r.url === "/api/v1/identities");
    expect(JSON.parse(created?.body ?? "null")).toEqual({
      name: "platform-people",
      organizationId: ORG_ID,
      role: "admin",
    });
    const attached = requests.find((r) => r.url === `/api/v1/auth/oidc-auth/identities/${NEW_ID}`);
    expect(attached?.method).toBe("POST");
    expect(JSON.parse(attached?.body ?? "null")).toEqual({
      oidcDiscoveryUrl: ISSUER,
      boundIssuer: ISSUER,
      boundAudiences: "keyhold-console",
      boundClaims: { groups: "platform" },
      claimMetadataMapping: { email: "email", name: "name" },
      accessTokenTTL: 3600,
      accessTokenMaxTTL: 3600,
    });
    expect(screen.getByLabelText("Identity configuration")).toHaveTextContent(`KEYHOLD_OIDC_IDENTITY_ID=${NEW_ID}`);
  });

  it("updates the OIDC auth an existing identity has, rather than attaching a second", async () => {
    const { requests } = server(testOnly);
    const { user } = renderRoutes(routes, { path: "/settings/sign-in" });
    const step = await screen.findByRole("region", { name: "Choose the identity people sign in as" });
    await user.click(within(step).getByRole("radio", { name: "Use an existing identity" }));
    const picker = within(step).getByLabelText("Identity");
    await within(step).findByRole("option", { name: /^people/ });
    await user.selectOptions(picker, IDENTITY_ID);
    await user.click(within(step).getByRole("button", { name: "Set up OIDC auth" }));
    expect(await within(step).findByRole("status")).toHaveTextContent("people had its OIDC auth updated");
    const changed = requests.find((r) => r.url === `/api/v1/auth/oidc-auth/identities/${IDENTITY_ID}`);
    expect(changed?.method).toBe("PATCH");
    expect(requests.some((r) => r.method === "POST" && r.url === "/api/v1/identities")).toBe(false);
  });

  it("asks for the values of a bound claim before sending anything", async () => {
    const { requests } = server(testOnly);
    const { user } = renderRoutes(routes, { path: "/settings/sign-in" });
    const step = await screen.findByRole("region", { name: "Choose the identity people sign in as" });
    await user.type(within(step).getByLabelText("Bound claim (optional)"), "groups");
    await user.click(within(step).getByRole("button", { name: "Create identity with OIDC auth" }));
    expect(await within(step).findByText(/Enter the values the claim must hold/)).toBeVisible();
    expect(requests.filter((r) => r.method !== "GET")).toEqual([]);
  });

  it("runs a test sign-in in a new window and shows its outcome when it arrives", async () => {
    const open = vi.fn(() => null);
    vi.stubGlobal("open", open);
    let result: OidcTestResult = { status: "none" };
    server({ ...testOnly, identityId: IDENTITY_ID }, undefined, () => result);
    const { user } = renderRoutes(routes, { path: "/settings/sign-in" });
    const step = await screen.findByRole("region", { name: "Test a sign-in" });
    expect(await within(step).findByText("No test sign-in yet")).toBeVisible();
    await user.click(within(step).getByRole("button", { name: "Test sign-in" }));
    expect(open).toHaveBeenCalledWith(
      `/bff/oidc/login?test=${IDENTITY_ID}`,
      "_blank",
      expect.stringContaining("noopener"),
    );
    expect(within(step).getByText("Waiting for the sign-in in the other window…")).toBeVisible();
    result = {
      status: "passed",
      at: "2026-11-28T10:00:00.000Z",
      message: "Acme ID signed in eve@acme.test, and the secrets service accepted them as the identity people.",
      person: { subject: "eve@acme.test", email: "eve@acme.test" },
      identity: { id: IDENTITY_ID, name: "people" },
    };
    expect(await within(step).findByText("Test sign-in passed", undefined, { timeout: 4000 })).toBeVisible();
    expect(within(step).getByRole("status")).toHaveTextContent(
      "Acme ID signed in eve@acme.test, and the secrets service accepted them as the identity people.",
    );
  });

  it("says what failed when the set-up cannot be read, with a retry", async () => {
    server(json(502, errorBody(502, "BadGateway", "The BFF could not answer")));
    renderRoutes(routes, { path: "/settings/sign-in" });
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Could not load the single sign-on set-up");
    expect(within(alert).getByRole("button", { name: /Try again|Retry/ })).toBeVisible();
  });

  it("shows the provider's discovery problem", async () => {
    server({
      ...testOnly,
      problem: "Acme ID did not answer at http://127.0.0.1:9400/.well-known/openid-configuration",
    });
    renderRoutes(routes, { path: "/settings/sign-in" });
    expect(await screen.findByRole("alert")).toHaveTextContent("Acme ID did not answer");
  });
});

describe("SsoTestPage", () => {
  it("tells the test window why the sign-in failed", async () => {
    server(testOnly, undefined, () => ({
      status: "failed",
      at: "2026-11-28T10:00:00.000Z",
      message:
        'Acme ID signed you in as mallory@acme.test, but the secrets service refused the identity of rule "test sign-in": OIDC claim not allowed.',
    }));
    renderRoutes(routes, { path: "/sso-test" });
    expect(await screen.findByRole("heading", { level: 1, name: "Single sign-on test" })).toBeVisible();
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Test sign-in failed");
    expect(alert).toHaveTextContent("OIDC claim not allowed.");
    expect(screen.getByRole("button", { name: "Close this window" })).toBeVisible();
  });
});
