import { readFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import {
  type BffSession,
  CSRF_HEADER,
  CSRF_VALUE,
  endpoints,
  type IdentityMembership,
  type Project,
} from "@keyhold/contract";
import { test as base, expect, type Page } from "@playwright/test";
import { ignoreNotFound, type ServiceCall, ServiceError, serviceClient } from "./api.ts";

export function uniqueName(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString("hex")}`;
}

export const csrf = { [CSRF_HEADER]: CSRF_VALUE };

/**
 * Which server the suite runs against: the Keyhold service (`npm test`), or a live Infisical
 * server of the October 2024 or mid-2026 line (`pnpm test:infisical`, told by its global setup).
 * Where a server lacks a feature, a test checks the console's sentence saying so instead.
 */
export const server = (process.env.KEYHOLD_E2E_SERVER_LINE ?? "keyhold") as "keyhold" | "2024" | "2026";
export const liveServer = server !== "keyhold";

interface WorkerFixtures {
  adminToken: string;
  service: ServiceCall;
  session: BffSession;
}

interface TestFixtures {
  /** A page whose browser context is signed in as the bootstrap admin. */
  signedIn: Page;
  /** A fresh identity created through the API and deleted after the test. */
  seededIdentity: IdentityMembership;
  /** A second identity of the organisation (a member, no metadata), deleted after the test. */
  memberIdentity: IdentityMembership;
  /** A project with the default environments, created through the API and deleted after the test. */
  seededProject: Project;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  // Every page of every test fails on a Content-Security-Policy violation: the console
  // must work under the BFF's strict policy, not merely render.
  page: async ({ page }, use) => {
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await use(page);
    expect(violations, "Content-Security-Policy violations").toEqual([]);
  },
  adminToken: [
    // eslint-disable-next-line no-empty-pattern -- Playwright fixtures name their dependencies by destructuring
    async ({}, use) => {
      await use(readFileSync(process.env.KEYHOLD_E2E_ADMIN_TOKEN_FILE ?? "", "utf8").trim());
    },
    { scope: "worker" },
  ],
  service: [
    async ({ adminToken }, use) => {
      await use(serviceClient(process.env.KEYHOLD_E2E_SERVICE_URL ?? "", adminToken));
    },
    { scope: "worker" },
  ],
  session: [
    async ({ playwright, adminToken }, use) => {
      const request = await playwright.request.newContext({ baseURL: process.env.KEYHOLD_E2E_BASE_URL });
      const response = await request.post("/bff/login", { headers: csrf, data: { accessToken: adminToken } });
      expect(response.status()).toBe(200);
      await use((await response.json()) as BffSession);
      await request.dispose();
    },
    { scope: "worker" },
  ],
  signedIn: async ({ page, adminToken }, use) => {
    const response = await page.request.post("/bff/login", { headers: csrf, data: { accessToken: adminToken } });
    expect(response.status()).toBe(200);
    await use(page);
  },
  seededIdentity: async ({ service, session }, use) => {
    const { identity } = await service(endpoints["identities.create"], {
      body: {
        name: uniqueName("e2e-identity"),
        organizationId: session.organization.id,
        role: "member",
        metadata: [{ key: "team", value: "platform" }],
      },
    });
    const { identity: membership } = await service(endpoints["identities.get"], {
      params: { identityId: identity.id },
    });
    await use(membership);
    try {
      await service(endpoints["identities.update"], {
        params: { identityId: identity.id },
        body: { hasDeleteProtection: false },
      });
      await service(endpoints["identities.delete"], { params: { identityId: identity.id } });
    } catch (error) {
      // The test may have deleted it already; anything else is a real failure.
      if (!(error instanceof ServiceError && error.status === 404)) throw error;
    }
  },
  memberIdentity: async ({ service, session }, use) => {
    const { identity } = await service(endpoints["identities.create"], {
      body: { name: uniqueName("e2e-member"), organizationId: session.organization.id, role: "member" },
    });
    const { identity: membership } = await service(endpoints["identities.get"], {
      params: { identityId: identity.id },
    });
    await use(membership);
    await ignoreNotFound(service(endpoints["identities.delete"], { params: { identityId: identity.id } }));
  },
  seededProject: async ({ service }, use) => {
    const { project } = await service(endpoints["projects.create"], {
      body: { projectName: uniqueName("e2e-project"), shouldCreateDefaultEnvs: true },
    });
    await use(project);
    await ignoreNotFound(service(endpoints["projects.delete"], { params: { workspaceId: project.id } }));
  },
});

export { expect };
