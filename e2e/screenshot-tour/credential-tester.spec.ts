import { mkdirSync } from "node:fs";
import { endpoints } from "@keyhold/contract";
import type { Page } from "@playwright/test";
import type { ServiceCall } from "../support/api.ts";
import { expect, test } from "../support/fixtures.ts";
import { startOidcProvider } from "../../bff/src/test/oidc-provider.ts";
import { methodRow } from "../support/identities.ts";
import { sidewaysOverflow, widestElements } from "../support/layout.ts";

const dir = process.env.KEYHOLD_SCREENSHOT_DIR ?? new URL("../screenshots/", import.meta.url).pathname;
mkdirSync(dir, { recursive: true });

const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const unsignedJwt = (claims: Record<string, unknown>) =>
  `${part({ alg: "RS256", kid: "acme-1" })}.${part(claims)}.c2ln`;
const inTenMinutes = () => Math.floor(Date.now() / 1000) + 600;

interface Case {
  label: string;
  attach: (service: ServiceCall, identityId: string) => Promise<unknown>;
  field: string;
  paste: () => string;
}

/** Each method's tester with a credential one rule refuses. */
const cases: Record<string, Case> = {
  oidc: {
    label: "OIDC auth",
    attach: (service, identityId) =>
      service(endpoints["oidcAuth.attach"], {
        params: { identityId },
        body: {
          oidcDiscoveryUrl: "https://token.actions.githubusercontent.com",
          boundIssuer: "https://token.actions.githubusercontent.com",
          boundAudiences: "https://github.com/acme",
          boundSubject: "repo:acme/*",
          boundClaims: { repository: "acme/*", environment: "production" },
          claimMetadataMapping: { repo: "repository", actor: "actor" },
        },
      }),
    field: "JWT",
    paste: () =>
      unsignedJwt({
        iss: "https://token.actions.githubusercontent.com",
        sub: "repo:acme/api",
        aud: "https://github.com/acme",
        exp: inTenMinutes(),
        repository: "acme/api",
        actor: "octocat",
        environment: "staging",
      }),
  },
  kubernetes: {
    label: "Kubernetes auth",
    attach: (service, identityId) =>
      service(endpoints["kubernetesAuth.attach"], {
        params: { identityId },
        body: {
          kubernetesHost: "https://kubernetes.default.svc",
          allowedNamespaces: "prod, staging",
          allowedNames: "deployer",
          allowedAudience: "https://kubernetes.default.svc",
        },
      }),
    field: "Service account token",
    paste: () =>
      unsignedJwt({
        aud: ["https://kubernetes.default.svc"],
        exp: inTenMinutes(),
        sub: "system:serviceaccount:ci:deployer",
        "kubernetes.io": { namespace: "ci", serviceaccount: { name: "deployer" } },
      }),
  },
  aws: {
    label: "AWS auth",
    attach: (service, identityId) =>
      service(endpoints["awsAuth.attach"], {
        params: { identityId },
        body: { allowedAccountIds: "123456789012", allowedPrincipalArns: "arn:aws:iam::123456789012:role/admin-*" },
      }),
    field: "aws sts get-caller-identity output or an ARN",
    paste: () =>
      JSON.stringify(
        {
          UserId: "AROAEXAMPLEID:ci-run-42",
          Account: "123456789012",
          Arn: "arn:aws:sts::123456789012:assumed-role/deployer/ci-run-42",
        },
        null,
        2,
      ),
  },
};

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `${dir}${name}.png`, animations: "disabled" });
}

for (const [method, spec] of Object.entries(cases)) {
  for (const theme of ["light", "dark"] as const) {
    for (const width of [390, 1440] as const) {
      test(`${spec.label} credential tester in the ${theme} theme at ${width} px`, async ({
        signedIn: page,
        seededIdentity,
        service,
      }) => {
        await page.emulateMedia({ colorScheme: theme });
        await page.setViewportSize({ width, height: 900 });
        const identityId = seededIdentity.identity.id;
        await spec.attach(service, identityId);
        await page.goto(`/identities/${identityId}`);
        await methodRow(page, spec.label)
          .getByRole("button", { name: `Edit ${spec.label}` })
          .click();
        const dialog = page.getByRole("dialog", { name: `Edit ${spec.label}` });
        const panel = dialog.getByRole("region", { name: "Test a credential" });
        await panel.getByLabel(spec.field, { exact: true }).fill(spec.paste());
        const verdict = panel.getByRole("status");
        await expect(verdict).toContainText("Would be refused");
        expect(await sidewaysOverflow(page), `sideways overflow by ${await widestElements(page)}`).toBe(0);
        await panel.getByRole("heading", { name: "Test a credential" }).scrollIntoViewIfNeeded();
        await shoot(page, `${theme}-${width}-credential-tester-${method}`);
        await panel.getByRole("list", { name: "Rules, checked in your browser" }).scrollIntoViewIfNeeded();
        await shoot(page, `${theme}-${width}-credential-tester-${method}-rules`);
      });
    }
  }
}

/** The OIDC form's dry run against a real provider, refused for a claim the token lacks. */
for (const theme of ["light", "dark"] as const) {
  for (const width of [390, 1440] as const) {
    test(`OIDC auth dry run in the ${theme} theme at ${width} px`, async ({
      signedIn: page,
      seededIdentity,
      service,
    }) => {
      const provider = await startOidcProvider({ users: [], clients: [] });
      try {
        await page.emulateMedia({ colorScheme: theme });
        await page.setViewportSize({ width, height: 900 });
        const identityId = seededIdentity.identity.id;
        await service(endpoints["oidcAuth.attach"], {
          params: { identityId },
          body: {
            oidcDiscoveryUrl: provider.issuer,
            boundIssuer: provider.issuer,
            boundClaims: { repository: "acme/*", environment: "production" },
          },
        });
        await page.goto(`/identities/${identityId}`);
        await methodRow(page, "OIDC auth").getByRole("button", { name: "Edit OIDC auth" }).click();
        const panel = page
          .getByRole("dialog", { name: "Edit OIDC auth" })
          .getByRole("region", { name: "Test a credential" });
        await panel.getByLabel("JWT", { exact: true }).fill(
          await provider.sign({
            iss: provider.issuer,
            sub: "repo:acme/api",
            exp: inTenMinutes(),
            repository: "acme/api",
          }),
        );
        await panel.getByRole("button", { name: "Try a real sign-in (dry run)" }).click();
        const answer = panel.getByRole("group", { name: "Dry run answer" });
        await expect(answer).toContainText("No token was issued");
        expect(await sidewaysOverflow(page), `sideways overflow by ${await widestElements(page)}`).toBe(0);
        await answer.scrollIntoViewIfNeeded();
        await shoot(page, `${theme}-${width}-credential-tester-dry-run`);
      } finally {
        await provider.close();
      }
    });
  }
}
