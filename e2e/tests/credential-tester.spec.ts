import { endpoints } from "@keyhold/contract";
import type { Locator, Page } from "@playwright/test";
import { startOidcProvider, type TestOidcProvider } from "../../bff/src/test/oidc-provider.ts";
import { test as base, expect } from "../support/fixtures.ts";
import { methodRow } from "../support/identities.ts";

/**
 * "Test a credential" on the auth-method forms: a pasted credential checked rule by rule against
 * the form's unsaved values in the browser, and a dry run of the real login through the service
 * against a real OpenID provider (its keys reachable from the service), which issues no token.
 */

const test = base.extend<{ provider: TestOidcProvider }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures name their dependencies by destructuring
  provider: async ({}, use) => {
    const provider = await startOidcProvider({ users: [], clients: [] });
    await use(provider);
    await provider.close();
  },
});

const BOUND_CLAIMS = { repository: "acme/*", environment: "production" };

/** A CI job's ID token as the provider signs it; the job's environment claim only when given. */
function ciToken(provider: TestOidcProvider, claims: Record<string, unknown> = {}) {
  const now = Math.floor(Date.now() / 1000);
  return provider.sign({
    iss: provider.issuer,
    sub: "repo:acme/api",
    aud: "keyhold",
    iat: now,
    exp: now + 600,
    repository: "acme/api",
    ...claims,
  });
}

async function openOidcForm(page: Page, identityId: string): Promise<Locator> {
  await page.goto(`/identities/${identityId}`);
  await methodRow(page, "OIDC auth").getByRole("button", { name: "Edit OIDC auth" }).click();
  return page.getByRole("dialog", { name: "Edit OIDC auth" });
}

const tester = (dialog: Locator) => dialog.getByRole("region", { name: "Test a credential" });
const rule = (list: Locator, label: string) => list.getByRole("listitem").filter({ hasText: label });

test.describe("OIDC auth", () => {
  test.beforeEach(async ({ service, seededIdentity, provider }) => {
    await service(endpoints["oidcAuth.attach"], {
      params: { identityId: seededIdentity.identity.id },
      body: {
        oidcDiscoveryUrl: provider.issuer,
        boundIssuer: provider.issuer,
        boundAudiences: "keyhold",
        boundSubject: "repo:acme/*",
        boundClaims: BOUND_CLAIMS,
        claimMetadataMapping: { repo: "repository" },
      },
    });
  });

  test("a JWT missing one bound claim has that rule marked with the login's words; fixing the form passes it", async ({
    signedIn: page,
    seededIdentity,
    provider,
  }) => {
    const dialog = await openOidcForm(page, seededIdentity.identity.id);
    const panel = tester(dialog);
    await expect(panel).toContainText("Decoded in your browser — signature not checked.");
    await panel.getByLabel("JWT", { exact: true }).fill(await ciToken(provider));

    const rules = panel.getByRole("list", { name: "Rules, checked in your browser" });
    const missing = rule(rules, "Claim environment is one of production");
    await expect(missing).toContainText("Fails");
    await expect(missing).toContainText("The sign-in would answer 401: Access denied: token has no environment field");
    await expect(panel.getByRole("status")).toContainText("Would be refused: Claim environment is one of production");
    for (const passing of [
      `Issuer is "${provider.issuer}"`,
      "Not expired",
      'Subject matches "repo:acme/*"',
      "Audience is one of keyhold",
      "Claim repository is one of acme/*",
      "Carries repo from claim repository",
    ]) {
      await expect(rule(rules, passing)).toContainText("Passes");
    }
    await expect(rules.getByText("Fails")).toHaveCount(1);
    await expect(rule(rules, "Carries repo from claim repository")).toContainText("repo would be acme/api");
    await expect(panel).toContainText(/Expiresin (9|10)m/);

    // The form's unsaved value is what the rules read.
    await dialog.getByLabel("Required claims").fill("repository=acme/*");
    await expect(panel.getByRole("status")).toContainText("Would be accepted (signature not checked)");
    await expect(rules.getByText("Fails")).toHaveCount(0);
    await expect(rule(rules, "Claim environment")).toHaveCount(0);
  });

  test("a dry run asks the provider's keys and the service's rules, and issues no token", async ({
    signedIn: page,
    seededIdentity,
    provider,
  }) => {
    const dialog = await openOidcForm(page, seededIdentity.identity.id);
    const panel = tester(dialog);
    await panel.getByLabel("JWT", { exact: true }).fill(await ciToken(provider, { environment: "production" }));
    await panel.getByRole("button", { name: "Try a real sign-in (dry run)" }).click();
    const answer = panel.getByRole("group", { name: "Dry run answer" });
    await expect(answer).toContainText("The service would accept this sign-in. No token was issued.");
    await expect(answer.getByRole("list", { name: "Rules the service applied" }).getByText("Fails")).toHaveCount(0);

    // A token without the claim is refused by the service for the same rule, with the same words.
    await panel.getByLabel("JWT", { exact: true }).fill(await ciToken(provider));
    await expect(answer).toBeHidden();
    await panel.getByRole("button", { name: "Try a real sign-in (dry run)" }).click();
    await expect(answer).toContainText("The service would refuse this sign-in. No token was issued.");
    await expect(answer).toContainText("Access denied: token has no environment field");
    await expect(
      rule(answer.getByRole("list", { name: "Rules the service applied" }), "Claim environment"),
    ).toContainText("Fails");
  });
});

test("a pasted service account token shows its namespace and name, and the namespace rule it fails", async ({
  signedIn: page,
  service,
  seededIdentity,
}) => {
  const identityId = seededIdentity.identity.id;
  await service(endpoints["kubernetesAuth.attach"], {
    params: { identityId },
    body: {
      kubernetesHost: "https://kubernetes.example:6443",
      allowedNamespaces: "prod",
      allowedNames: "deployer",
      allowedAudience: "",
    },
  });
  await page.goto(`/identities/${identityId}`);
  await methodRow(page, "Kubernetes auth").getByRole("button", { name: "Edit Kubernetes auth" }).click();
  const panel = tester(page.getByRole("dialog", { name: "Edit Kubernetes auth" }));
  await expect(panel).toContainText("Decoded in your browser — not reviewed by the cluster.");
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const token = `${part({ alg: "RS256" })}.${part({
    sub: "system:serviceaccount:ci:deployer",
    aud: ["https://kubernetes.default.svc"],
    "kubernetes.io": { namespace: "ci", serviceaccount: { name: "deployer" } },
  })}.c2ln`;
  await panel.getByLabel("Service account token").fill(token);
  await expect(panel).toContainText("Namespaceci");
  await expect(panel).toContainText("Namedeployer");
  const rules = panel.getByRole("list", { name: "Rules, checked in your browser" });
  await expect(rule(rules, "Namespace is one of prod")).toContainText(
    "The sign-in would answer 401: Access denied: K8s namespace not allowed.",
  );
  await expect(rule(rules, "Name is one of deployer")).toContainText("Passes");
});

test("a pasted assumed-role ARN is checked as its role", async ({ signedIn: page, service, seededIdentity }) => {
  const identityId = seededIdentity.identity.id;
  await service(endpoints["awsAuth.attach"], {
    params: { identityId },
    body: { allowedAccountIds: "123456789012", allowedPrincipalArns: "arn:aws:iam::123456789012:role/deployer" },
  });
  await page.goto(`/identities/${identityId}`);
  await methodRow(page, "AWS auth").getByRole("button", { name: "Edit AWS auth" }).click();
  const dialog = page.getByRole("dialog", { name: "Edit AWS auth" });
  const panel = tester(dialog);
  await expect(panel).toContainText("Decoded in your browser — not checked with STS.");
  await panel
    .getByLabel("aws sts get-caller-identity output or an ARN")
    .fill("arn:aws:sts::123456789012:assumed-role/deployer/ci-run-42");
  await expect(panel).toContainText("Principalarn:aws:iam::123456789012:role/deployer");
  await expect(panel.getByRole("status")).toContainText("Would be accepted (not checked with STS)");

  await dialog.getByLabel("Allowed principal ARNs").fill("arn:aws:iam::123456789012:role/admin");
  await expect(panel.getByRole("status")).toContainText(
    "Would be refused: Principal matches arn:aws:iam::123456789012:role/admin",
  );
  await expect(panel).toContainText(
    "AWS principal ARN not allowed. [principal-arn=arn:aws:iam::123456789012:role/deployer]",
  );
});
