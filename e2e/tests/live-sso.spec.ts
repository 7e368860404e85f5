import { type BffSession, CSRF_HEADER, CSRF_VALUE, endpoints } from "@keyhold/contract";
import type { Page } from "@playwright/test";
import { ignoreNotFound } from "../support/api.ts";
import { keepsAuditLogs } from "../support/audit-plan.ts";
import { expect, server, test, uniqueName } from "../support/fixtures.ts";
import {
  insider,
  intern,
  type LiveSso,
  outsider,
  PROVIDER_NAME,
  RULE_NAME,
  renewer,
  startLiveSso,
  UNBOUND_RULE_NAME,
} from "../support/live-sso.ts";

/**
 * Single sign-on against a live server: a person signs in at a real OpenID provider's own login
 * page, the BFF exchanges the ID token at the server's OIDC auth for the identity a sign-in rule
 * names, and the console opens as that person. The server's own OIDC auth decides who may use the
 * identity (here: e-mail addresses of acme.test). A server without OIDC auth is told in the console.
 */
const live = { tag: "@live" } as const;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

let sso: LiveSso;

test.describe("single sign-on through the server's OIDC auth", () => {
  // One provider and one BFF for these tests: in order, in one worker.
  test.describe.configure({ mode: "default" });
  // The provider's certificate is a throwaway one for 127.0.0.1 (see support/live-sso.ts).
  test.use({ ignoreHTTPSErrors: true });

  test.beforeAll(async ({ service, session }) => {
    sso = await startLiveSso({
      upstream: process.env.KEYHOLD_E2E_SERVICE_URL ?? "",
      service,
      organizationId: session.organization.id,
    });
  });
  test.afterAll(async () => {
    await sso?.close();
  });

  /** From the console's sign-in page through the provider's own login page, back to the console. */
  async function signInAtProvider(page: Page, person: { email: string; password: string }): Promise<void> {
    await page.goto(`${sso.baseUrl}/sign-in`);
    await page.getByRole("link", { name: `Sign in with ${PROVIDER_NAME}` }).click();
    await expect(page).toHaveTitle(`${PROVIDER_NAME}: sign in`);
    await page.getByLabel("Email").fill(person.email);
    await page.getByLabel("Password").fill(person.password);
    await page.getByRole("button", { name: "Continue" }).click();
  }

  /** GET /bff/session from the page, as the console asks it. */
  function sessionFromPage(
    page: Page,
  ): Promise<{ status: number; body: BffSession | undefined; message: string | undefined }> {
    return page.evaluate(
      async ([header, value]) => {
        const answer = await fetch("/bff/session", { headers: { [header]: value } });
        const json = (await answer.json()) as unknown;
        return answer.ok
          ? { status: answer.status, body: json as BffSession, message: undefined }
          : { status: answer.status, body: undefined, message: (json as { message?: string }).message };
      },
      [CSRF_HEADER, CSRF_VALUE] as const,
    );
  }

  test(
    "a person signs in at the provider and lands in the console, named in the session and the header",
    live,
    async ({ page }) => {
      test.skip(!sso.hasOidcAuth, "this server has no OIDC auth (the next test reads what the console says)");
      await signInAtProvider(page, insider);

      await expect(page).toHaveURL((url) => url.origin === sso.baseUrl && url.pathname !== "/sign-in");
      await expect(page.getByRole("button", { name: `Account: ${insider.email}` })).toBeVisible();
      const { status, body } = await sessionFromPage(page);
      expect(status).toBe(200);
      expect(body?.person).toMatchObject({ email: insider.email, name: insider.name, provider: PROVIDER_NAME });
      expect(body?.identity).toMatchObject({ id: sso.identity.id, name: sso.identity.name });
      // The browser holds a cookie and nothing else: no token in its storage.
      const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
      expect(stored).not.toMatch(/eyJ[\w-]+\.[\w-]+/);
    },
  );

  test(
    "the session is renewed through the provider's refresh token, and ends once the provider disables the person",
    live,
    async ({ page }) => {
      test.skip(!sso.hasOidcAuth, "this server has no OIDC auth");
      await signInAtProvider(page, renewer);
      await expect(page.getByRole("button", { name: `Account: ${renewer.email}` })).toBeVisible();
      const refreshes = () =>
        sso.provider.tokenRequests.filter((r) => r.grantType === "refresh_token" && r.status === 200).length;
      const before = refreshes();

      // Two thirds into the token's life the next request renews it: a refresh grant at the
      // provider, then a new sign-in at the server with the fresh ID token. The session goes on.
      await expect
        .poll(async () => ((await sessionFromPage(page)).status === 200 ? refreshes() : -1), { timeout: 30_000 })
        .toBeGreaterThan(before);
      const renewed = await sessionFromPage(page);
      expect(renewed.status).toBe(200);
      expect(renewed.body?.person?.email).toBe(renewer.email);
      expect(renewed.body?.identity.id).toBe(sso.shortLived.id);

      // Removed at the provider: the next renewal is refused there, and the session ends.
      const person = sso.provider.users.get(renewer.email);
      if (!person) throw new Error("the provider lost the person");
      person.disabled = true;
      // The request whose renewal fails is told why (later ones only that there is no session).
      await expect
        .poll(
          async () => {
            const { status, message } = await sessionFromPage(page);
            return status === 200 ? "still signed in" : `${status} ${message}`;
          },
          { timeout: 30_000 },
        )
        .toBe(`401 Your sign-in at ${PROVIDER_NAME} has ended. Sign in again.`);
      expect(sso.provider.tokenRequests.at(-1)).toMatchObject({ grantType: "refresh_token" });
      expect(sso.provider.tokenRequests.at(-1)?.status).not.toBe(200);
    },
  );

  test(
    "a person outside the identity's bound claims is refused with the provider's and the rule's names",
    live,
    async ({ page }) => {
      test.skip(!sso.hasOidcAuth, "this server has no OIDC auth (the next test reads what the console says)");
      await signInAtProvider(page, outsider);

      await expect(page).toHaveURL(`${sso.baseUrl}/sign-in?sso=failed`);
      // The server's words after the rule's name: "Access denied: OIDC claim not allowed." on
      // Infisical servers, "OIDC claim not allowed." on Keyhold's.
      await expect(page.getByRole("alert")).toHaveText(
        new RegExp(
          `^${escapeRegExp(`${PROVIDER_NAME} signed you in as ${outsider.email}, but the secrets service refused the identity of rule "${RULE_NAME}": `)}` +
            "(Access denied: )?OIDC claim not allowed\\.$",
        ),
      );
      expect((await sessionFromPage(page)).status).toBe(401);
    },
  );

  test(
    "a rule naming an identity without OIDC auth is refused as that identity's, not as a server without OIDC auth",
    live,
    async ({ page }) => {
      test.skip(!sso.hasOidcAuth, "this server has no OIDC auth (the next test reads what the console says)");
      await signInAtProvider(page, intern);

      await expect(page).toHaveURL(`${sso.baseUrl}/sign-in?sso=failed`);
      // The server's own words follow the rule's name: "OIDC auth method not found for identity, …"
      // (October 2024 servers name the method wrongly: "GCP auth method not found for identity, …").
      await expect(page.getByRole("alert")).toHaveText(
        new RegExp(
          `^${escapeRegExp(`${PROVIDER_NAME} signed you in as ${intern.email}, but the secrets service refused the identity of rule "${UNBOUND_RULE_NAME}": `)}` +
            "\\w+ auth method not found for identity",
        ),
      );
      expect((await sessionFromPage(page)).status).toBe(401);
    },
  );

  test("on a server without OIDC auth the console says single sign-on cannot work with it", live, async ({ page }) => {
    test.skip(sso.hasOidcAuth, "this server has OIDC auth (the tests above sign in through it)");
    await signInAtProvider(page, insider);

    await expect(page).toHaveURL(`${sso.baseUrl}/sign-in?sso=failed`);
    await expect(page.getByRole("alert")).toHaveText(
      "This secrets service has no OIDC auth, so single sign-on cannot work with it.",
    );
    expect((await sessionFromPage(page)).status).toBe(401);
  });

  test(
    "a change the person makes is in the server's audit log, naming them where the server carries claims",
    live,
    async ({ page, service, session, seededProject: project }) => {
      test.skip(!sso.hasOidcAuth, "this server has no OIDC auth");
      const keeps = await keepsAuditLogs(session.organization.id);
      test.skip(keeps === false, "the server's plan keeps no audit log");
      await service(endpoints["identityMemberships.add"], {
        params: { projectId: project.id, identityId: sso.identity.id },
        body: { roles: [{ role: "member", isTemporary: false }] },
      });
      await signInAtProvider(page, insider);
      await expect(page.getByRole("button", { name: `Account: ${insider.email}` })).toBeVisible();

      // The change, through the console's API (the BFF forwards with the identity's token).
      const secretName = uniqueName("SSO_CHANGE").replaceAll("-", "_").toUpperCase();
      const created = await page.request.post(`${sso.baseUrl}/api/v3/secrets/raw/${secretName}`, {
        headers: { [CSRF_HEADER]: CSRF_VALUE },
        data: { workspaceId: project.id, environment: "dev", secretPath: "/", secretValue: "changed-by-ada" },
      });
      expect(created.status()).toBe(200);

      const projectLog = () =>
        service(endpoints["auditLogs.listProject"], {
          params: { workspaceId: project.id },
          query: { startDate: new Date(Date.now() - 600_000).toISOString(), limit: 50 },
        });
      if (keeps === "unknown") {
        // An October 2024 server shows its plan to user sessions only; it stores events at once,
        // so a project log without even its creation means a plan that keeps none.
        test.skip((await projectLog()).auditLogs.length === 0, "the server's plan keeps no audit log");
      }

      // The server stores its events through a queue: look until the event is there.
      let actor: { type?: string; metadata?: Record<string, unknown> } | undefined;
      await expect(async () => {
        const { auditLogs } = await projectLog();
        const event = auditLogs.find(
          (entry) =>
            entry.event.type === "create-secret" &&
            (entry.event.metadata as { secretKey?: string } | undefined)?.secretKey === secretName,
        );
        actor = event?.actor as typeof actor;
        expect(actor?.type).toBe("identity");
      }).toPass({ timeout: 60_000 });

      expect(actor?.metadata).toMatchObject({ identityId: sso.identity.id, name: sso.identity.name });
      if (server === "2024") {
        // October 2024 servers have no claim mapping: the event names the identity only.
        expect(actor?.metadata).not.toHaveProperty("oidc");
        test.info().annotations.push({ type: "audit actor", description: "identity only (no claim mapping)" });
      } else {
        expect(actor?.metadata).toMatchObject({ oidc: { claims: { email: insider.email, name: insider.name } } });
      }
      await ignoreNotFound(
        service(endpoints["secrets.delete"], {
          params: { secretName },
          body: { workspaceId: project.id, environment: "dev", secretPath: "/" },
        }),
      );
    },
  );
});
