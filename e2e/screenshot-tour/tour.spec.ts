import { mkdirSync } from "node:fs";
import { endpoints } from "@keyhold/contract";
import { expect, test } from "../support/fixtures.ts";

const dir = new URL("../screenshots/", import.meta.url).pathname;
mkdirSync(dir, { recursive: true });

for (const theme of ["light", "dark"] as const) {
  test(`tour in the ${theme} theme`, async ({ page, adminToken, seededIdentity, service }) => {
    await page.emulateMedia({ colorScheme: theme });
    await page.setViewportSize({ width: 1440, height: 900 });
    const shot = (name: string) => page.screenshot({ path: `${dir}${theme}-${name}.png`, animations: "disabled" });

    await page.goto("/sign-in");
    await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
    await shot("01-sign-in");
    await page.getByLabel("Access token").fill("wrong");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert")).toBeVisible();
    await shot("02-sign-in-error");
    await page.getByRole("radio", { name: "Universal auth" }).check();
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByText("Client secret is required")).toBeVisible();
    await shot("02b-sign-in-client-secret");
    await page.getByRole("radio", { name: "Token" }).check();

    await page.getByLabel("Access token").fill(adminToken);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("row").filter({ hasText: seededIdentity.identity.name })).toBeVisible();
    await shot("03-identities");

    await page.getByRole("button", { name: "Create identity" }).first().click();
    // The form loads when the dialog opens; the shot is of the form.
    await expect(page.getByRole("dialog").getByLabel("Name")).toBeVisible();
    await shot("04-create-identity");
    await page.keyboard.press("Escape");

    await page.goto(`/identities/${seededIdentity.identity.id}`);
    await expect(page.getByRole("heading", { level: 1, name: seededIdentity.identity.name })).toBeVisible();
    await shot("05-identity-overview");
    await page.getByRole("navigation", { name: "Identity sections" }).getByRole("link", { name: "Edit" }).click();
    await shot("06-identity-edit");
    await page.getByRole("button", { name: "Delete identity" }).click();
    await expect(page.getByRole("alertdialog")).toBeVisible();
    await shot("07-delete-confirm");
    await page.keyboard.press("Escape");

    await page.goto("/identities");
    await page.getByRole("link", { name: "admin", exact: true }).click();
    await page.getByRole("navigation", { name: "Identity sections" }).getByRole("link", { name: "Edit" }).click();
    await expect(page.getByRole("combobox", { name: "Organization role" })).toBeDisabled();
    await shot("07b-own-identity-edit");
    await page.getByRole("button", { name: "Delete identity" }).click();
    await expect(page.getByRole("alertdialog")).toBeVisible();
    await shot("07c-own-identity-delete");
    await page.keyboard.press("Escape");

    // An identity with several methods attached, and every method's form.
    const identityId = seededIdentity.identity.id;
    const params = { identityId };
    await service(endpoints["tokenAuth.attach"], { params, body: {} });
    await service(endpoints["universalAuth.attach"], {
      params,
      body: { clientSecretTrustedIps: [{ ipAddress: "10.0.0.0/8" }, { ipAddress: "2001:db8::/32" }] },
    });
    await service(endpoints["kubernetesAuth.attach"], {
      params,
      body: {
        kubernetesHost: "https://kubernetes.platform-cluster.internal.example.com:6443",
        tokenReviewerJwt: "reviewer.jwt",
        allowedNamespaces: "ci, deployments, platform-tooling, observability",
        allowedNames: "deployer",
        allowedAudience: "",
      },
    });
    await page.goto(`/identities/${identityId}`);
    const section = page.getByRole("region", { name: "Auth methods" });
    await expect(section.getByText("Set (never shown)")).toBeVisible();
    await section.scrollIntoViewIfNeeded();
    await shot("10-auth-methods");
    for (const [label, action] of [
      ["Token auth", "Edit"],
      ["Universal auth", "Edit"],
      ["Kubernetes auth", "Edit"],
      ["OIDC auth", "Attach"],
      ["AWS auth", "Attach"],
    ] as const) {
      await section.getByRole("button", { name: `${action} ${label}` }).click();
      await expect(page.getByRole("dialog", { name: `${action} ${label}` })).toBeVisible();
      await shot(`11-${label.split(" ")[0]?.toLowerCase()}-form`);
      await page.keyboard.press("Escape");
    }
    await section.getByRole("button", { name: "Create token" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Create token" }).click();
    await expect(page.getByRole("dialog", { name: "Access token created" })).toBeVisible();
    await shot("12-token-created");
    await page.keyboard.press("Escape");

    // Credentials: tokens and client secrets in several states.
    await service(endpoints["tokenAuth.createToken"], { params, body: { name: "release-pipeline" } });
    await service(endpoints["universalAuth.createClientSecret"], {
      params,
      body: { description: "GitHub Actions", ttl: 2_592_000, numUsesLimit: 100 },
    });
    await service(endpoints["universalAuth.createClientSecret"], { params, body: {} });
    await page.reload();
    const tokens = page.getByRole("region", { name: "Access tokens" });
    await expect(tokens.getByText("release-pipeline")).toBeVisible();
    await tokens.scrollIntoViewIfNeeded();
    await shot("13-tokens-table");
    const secrets = page.getByRole("region", { name: "Client secrets" });
    await expect(secrets.getByText("GitHub Actions")).toBeVisible();
    await secrets.scrollIntoViewIfNeeded();
    await shot("14-client-secrets-table");
    await tokens.getByRole("button", { name: "Rename release-pipeline" }).click();
    await expect(page.getByRole("dialog", { name: "Rename access token" })).toBeVisible();
    await shot("15-rename-token");
    await page.keyboard.press("Escape");
    await secrets.getByRole("button", { name: "Create client secret" }).click();
    const create = page.getByRole("dialog", { name: "Create client secret" });
    await create.getByLabel("TTL").fill("90d");
    await shot("16-create-client-secret");
    await create.getByRole("button", { name: "Create secret" }).click();
    await expect(page.getByRole("dialog", { name: "Client secret created" })).toBeVisible();
    await shot("17-client-secret-created");
    await page.keyboard.press("Escape");
    await secrets.getByRole("button", { name: "Revoke GitHub Actions" }).click();
    await expect(page.getByRole("alertdialog")).toBeVisible();
    await shot("18-revoke-client-secret");
    await page.keyboard.press("Escape");

    // Projects: a few with and without descriptions, one protected from deletion.
    const tourProjects = [
      ["Payments API", "Card payments and payouts for the storefront", true],
      ["Storefront", undefined, false],
      ["Data pipeline", "Nightly exports to the warehouse", false],
    ] as const;
    // The other theme's run made the same projects on the same service: start from none.
    const { workspaces } = await service(endpoints["projects.list"], {});
    for (const old of workspaces.filter((p) => tourProjects.some(([name]) => name === p.name))) {
      await service(endpoints["projects.update"], {
        params: { workspaceId: old.id },
        body: { hasDeleteProtection: false },
      });
      await service(endpoints["projects.delete"], { params: { workspaceId: old.id } });
    }
    const projects = [];
    for (const [projectName, projectDescription, hasDeleteProtection] of tourProjects) {
      const { project } = await service(endpoints["projects.create"], {
        body: { projectName, ...(projectDescription ? { projectDescription } : {}), hasDeleteProtection },
      });
      projects.push(project);
    }
    const [payments, storefront] = projects;
    if (!payments || !storefront) throw new Error("projects were not created");
    await service(endpoints["environments.create"], {
      params: { workspaceId: payments.id },
      body: { name: "QA Europe", slug: "qa-europe" },
    });
    await page.goto("/projects");
    await expect(page.getByRole("link", { name: "Payments API" })).toBeVisible();
    await shot("08-projects");
    await page.getByRole("button", { name: "Create project" }).first().click();
    const createProject = page.getByRole("dialog", { name: "Create project" });
    await createProject.getByLabel("Name").fill("Checkout Service");
    await shot("08b-create-project");
    await createProject.getByLabel("Slug").fill("No_Good");
    await createProject.getByRole("button", { name: "Create project" }).click();
    await expect(createProject.getByText(/Slug may contain only/)).toBeVisible();
    await shot("08c-create-project-invalid");
    await page.keyboard.press("Escape");
    await page.goto(`/projects/${payments.id}`);
    await expect(page.getByRole("table", { name: "Environments" }).getByText("qa-europe")).toBeVisible();
    await shot("08d-project-overview");
    await page.getByRole("button", { name: "Rename QA Europe" }).click();
    await expect(page.getByRole("dialog", { name: "Rename environment" })).toBeVisible();
    await shot("08e-rename-environment");
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "Delete project" }).click();
    await expect(page.getByRole("alertdialog")).toBeVisible();
    await shot("08f-delete-protected-project");
    await page.keyboard.press("Escape");
    await page.goto(`/projects/${storefront.id}`);
    await page.getByRole("button", { name: "Delete project" }).click();
    await expect(page.getByRole("alertdialog")).toBeVisible();
    await shot("08g-delete-project");
    await page.keyboard.press("Escape");
    await page.goto("/projects/00000000-0000-4000-8000-000000000000");
    await expect(page.getByRole("heading", { name: "This page does not exist" })).toBeVisible();
    await shot("08h-project-not-found");
    await page.goto("/identities/00000000-0000-4000-8000-000000000000");
    await shot("09-identity-not-found");
  });
}
