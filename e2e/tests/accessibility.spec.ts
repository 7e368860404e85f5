import { endpoints } from "@keyhold/contract";
import { seriousViolations } from "../support/axe.ts";
import { csrf, expect, test, uniqueName } from "../support/fixtures.ts";
import { PROVIDER_NAME, signInAtProvider, test as ssoTest } from "../support/sso-stack.ts";
import { startStreamReceiver } from "../support/stream-receiver.ts";

for (const theme of ["light", "dark"] as const) {
  test.describe(`${theme} theme`, () => {
    test.use({ colorScheme: theme });

    test("sign-in page has no serious accessibility violations", async ({ page }) => {
      await page.goto("/sign-in");
      await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });

    ssoTest(
      "sign-in with single sign-on, and its refusal, have no serious accessibility violations",
      async ({ page, sso, person }) => {
        await page.goto(sso.url("/sign-in"));
        await expect(page.getByRole("link", { name: `Sign in with ${PROVIDER_NAME}` })).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
        await page.getByRole("link", { name: `Sign in with ${PROVIDER_NAME}` }).click();
        await signInAtProvider(page, person(["contractors"]));
        await expect(page.getByRole("alert")).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
      },
    );

    ssoTest(
      "the single sign-on set-up page has no serious accessibility violations",
      async ({ page, sso, adminToken }) => {
        const login = await page.request.post(sso.url("/bff/login"), {
          headers: csrf,
          data: { accessToken: adminToken },
        });
        expect(login.status()).toBe(200);
        await page.goto(sso.url("/settings/sign-in"));
        const step = page.getByRole("region", { name: "Choose the identity people sign in as" });
        await expect(step).toBeVisible();
        await expect(
          page.getByRole("region", { name: "Test a sign-in" }).getByText("No test sign-in yet"),
        ).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
        await step.getByRole("radio", { name: "Use an existing identity" }).check();
        await expect(step.getByLabel("Identity", { exact: true })).toBeEnabled();
        expect(await seriousViolations(page)).toEqual([]);
      },
    );

    test("identities list has no serious accessibility violations", async ({ signedIn: page, seededIdentity }) => {
      await page.goto(`/identities?q=${seededIdentity.identity.name}`);
      await expect(page.getByRole("row").filter({ hasText: seededIdentity.identity.name })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByRole("button", { name: "Create identity" }).first().click();
      await expect(page.getByRole("dialog", { name: "Create identity" })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });

    test("an auth method's credential tester, refusing and accepting, has no serious accessibility violations", async ({
      signedIn: page,
      service,
      seededIdentity,
    }) => {
      const identityId = seededIdentity.identity.id;
      const issuer = "https://token.actions.githubusercontent.com";
      await service(endpoints["oidcAuth.attach"], {
        params: { identityId },
        body: { oidcDiscoveryUrl: issuer, boundIssuer: issuer, boundClaims: { environment: "production" } },
      });
      await page.goto(`/identities/${identityId}`);
      await page.getByRole("button", { name: "Edit OIDC auth" }).click();
      const dialog = page.getByRole("dialog", { name: "Edit OIDC auth" });
      const panel = dialog.getByRole("region", { name: "Test a credential" });
      const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
      const exp = Math.floor(Date.now() / 1000) + 600;
      await panel
        .getByLabel("JWT", { exact: true })
        .fill(`${part({ alg: "RS256" })}.${part({ iss: issuer, exp, environment: "staging" })}.c2ln`);
      await expect(panel.getByRole("status")).toContainText("Would be refused");
      await panel.getByText("Claims", { exact: true }).click();
      expect(await seriousViolations(page)).toEqual([]);

      await dialog.getByLabel("Required claims").fill("environment=staging");
      await expect(panel.getByRole("status")).toContainText("Would be accepted");
      expect(await seriousViolations(page)).toEqual([]);
    });

    test("audit log, its filter picker and an event's drawer have no serious accessibility violations", async ({
      signedIn: page,
      service,
      seededProject,
    }) => {
      await service(endpoints["secrets.create"], {
        params: { secretName: "AXE_AUDIT" },
        body: { workspaceId: seededProject.id, environment: "dev", secretPath: "/", secretValue: "v" },
      });
      await page.goto(`/audit-log?range=1h&projectId=${seededProject.id}`);
      const row = page.getByRole("row", { name: /^Create secret by/ });
      await expect(row).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByRole("button", { name: "Add filter" }).click();
      await page.getByRole("menuitem", { name: "Event type" }).click();
      await expect(page.getByRole("dialog", { name: "Event filter" })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press("Escape");

      await row.click();
      await expect(page.getByRole("dialog", { name: "Create secret" })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });

    test("identity detail has no serious accessibility violations", async ({ signedIn: page, seededIdentity }) => {
      await page.goto(`/identities/${seededIdentity.identity.id}`);
      await expect(page.getByRole("heading", { level: 1, name: seededIdentity.identity.name })).toBeVisible();
      await expect(page.getByRole("heading", { name: "Not a member of any project" })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByRole("navigation", { name: "Identity sections" }).getByRole("link", { name: "Edit" }).click();
      await expect(page.getByRole("button", { name: "Save changes" })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByRole("button", { name: "Delete identity" }).click();
      await expect(page.getByRole("alertdialog")).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });

    test("organisation settings, a stream's dialogs and a verification have no serious accessibility violations", async ({
      signedIn: page,
      service,
    }) => {
      const receiver = await startStreamReceiver();
      const { auditLogStream } = await service(endpoints["auditLogStreams.create"], {
        params: { provider: "custom" },
        body: { credentials: { url: receiver.url, headers: [{ key: "X-Api-Key", value: "a11y-key" }] } },
      });
      try {
        await page.goto("/settings");
        const row = page.getByRole("listitem").filter({ hasText: receiver.url });
        await row.getByRole("button", { name: `Send test event to ${receiver.url}` }).click();
        await expect(row.getByText(/^Test event delivered/)).toBeVisible();
        await page.getByRole("button", { name: "Verify now" }).click();
        await expect(page.getByText("The chain holds")).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);

        await row.getByRole("button", { name: `Edit stream ${receiver.url}` }).click();
        await expect(page.getByRole("dialog", { name: "Edit stream" })).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
        await page.keyboard.press("Escape");

        await row.getByRole("button", { name: `Delete stream ${receiver.url}` }).click();
        await expect(page.getByRole("alertdialog")).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
      } finally {
        await service(endpoints["auditLogStreams.delete"], {
          params: { provider: auditLogStream.provider, streamId: auditLogStream.id },
        });
        await receiver.close();
      }
    });

    test("projects list and project overview have no serious accessibility violations", async ({
      signedIn: page,
      service,
    }) => {
      const { project } = await service(endpoints["projects.create"], { body: { projectName: uniqueName("a11y") } });
      try {
        await page.goto("/projects");
        await expect(page.getByRole("link", { name: project.name })).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);

        await page.getByRole("button", { name: "Create project" }).first().click();
        await expect(page.getByRole("dialog", { name: "Create project" }).getByLabel("Slug")).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
        await page.keyboard.press("Escape");

        await page.goto(`/projects/${project.id}`);
        await expect(page.getByRole("heading", { level: 1, name: project.name })).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);

        await page.getByRole("button", { name: "Add environment" }).click();
        await expect(page.getByRole("dialog", { name: "Add environment" })).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
        await page.keyboard.press("Escape");

        await page.getByRole("button", { name: "Delete project" }).click();
        await expect(page.getByRole("alertdialog")).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
      } finally {
        await service(endpoints["projects.delete"], { params: { workspaceId: project.id } });
      }
    });

    test("roles list, role builder and JSON view have no serious accessibility violations", async ({
      signedIn: page,
      service,
    }) => {
      const { project } = await service(endpoints["projects.create"], {
        body: { projectName: uniqueName("a11y-roles") },
      });
      try {
        const params = { projectId: project.id };
        const { role } = await service(endpoints["projectRoles.create"], {
          params,
          body: {
            name: "Dev reader",
            slug: "dev-reader",
            permissions: [
              { subject: "secrets", action: ["read"], conditions: { environment: "dev", secretTags: { $in: ["a"] } } },
              { subject: "role", action: ["delete"], inverted: true },
            ],
          },
        });
        await page.goto(`/projects/${project.id}/roles`);
        await expect(page.getByRole("link", { name: role.name })).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);

        await page.getByRole("button", { name: "Create role" }).click();
        await expect(page.getByRole("dialog", { name: "Create role" }).getByLabel("Slug")).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
        await page.keyboard.press("Escape");

        await page.getByRole("link", { name: role.name }).click();
        await expect(page.getByRole("group", { name: "Secrets", exact: true })).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);

        await page.getByRole("tab", { name: "JSON" }).click();
        await expect(page.getByRole("region", { name: "Permission rules as JSON" })).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);

        await page.getByRole("button", { name: "Delete role" }).click();
        await expect(page.getByRole("alertdialog")).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
      } finally {
        await service(endpoints["projects.delete"], { params: { workspaceId: project.id } });
      }
    });

    test("access page, its dialogs and an identity's privileges have no serious accessibility violations", async ({
      signedIn: page,
      service,
      seededIdentity,
    }) => {
      const { project } = await service(endpoints["projects.create"], {
        body: { projectName: uniqueName("a11y-access"), shouldCreateDefaultEnvs: true },
      });
      try {
        const identityId = seededIdentity.identity.id;
        const start = new Date().toISOString();
        const temporary = { temporaryMode: "relative" as const, temporaryRange: "1h", temporaryAccessStartTime: start };
        await service(endpoints["identityMemberships.add"], {
          params: { projectId: project.id, identityId },
          body: {
            roles: [
              { role: "viewer", isTemporary: false },
              { role: "member", isTemporary: true, ...temporary },
            ],
          },
        });
        await service(endpoints["identityPrivileges.create"], {
          body: {
            identityId,
            projectId: project.id,
            slug: "read-dev",
            permissions: [{ subject: "environments", action: ["read"] }],
            type: { isTemporary: true, ...temporary },
          },
        });
        await page.goto(`/projects/${project.id}/access?identity=${identityId}`);
        await expect(page.getByRole("cell", { name: "read-dev", exact: true })).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);

        await page.getByRole("button", { name: "Add identity" }).click();
        const add = page.getByRole("dialog", { name: "Add identity to project" });
        await add.getByRole("switch", { name: "Temporary role" }).click();
        await add.getByRole("radio", { name: "At a time" }).check();
        await expect(add.getByRole("option").first()).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
        await page.keyboard.press("Escape");
        const discard = page.getByRole("alertdialog", { name: "Discard unsaved changes?" });
        expect(await seriousViolations(page)).toEqual([]);
        await discard.getByRole("button", { name: "Discard changes" }).click();

        await page.getByRole("button", { name: "Edit privilege read-dev" }).click();
        await expect(page.getByRole("dialog").getByRole("group", { name: "Environments", exact: true })).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
        await page.keyboard.press("Escape");

        await page.getByRole("button", { name: `Remove ${seededIdentity.identity.name}` }).click();
        await expect(page.getByRole("alertdialog")).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
        await page.keyboard.press("Escape");

        await page.getByRole("tab", { name: "Users" }).click();
        await expect(page.getByRole("heading", { name: "No users in this project" })).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
      } finally {
        await service(endpoints["projects.delete"], { params: { workspaceId: project.id } });
      }
    });

    test("secret imports and integrations pages and their dialogs have no serious accessibility violations", async ({
      signedIn: page,
      service,
    }) => {
      const { project } = await service(endpoints["projects.create"], {
        body: { projectName: uniqueName("a11y-imports"), shouldCreateDefaultEnvs: true },
      });
      try {
        const workspaceId = project.id;
        for (const [environment, secretName] of [
          ["staging", "API_KEY"],
          ["prod", "API_KEY"],
          ["dev", "LOCAL"],
        ] as const) {
          await service(endpoints["secrets.create"], {
            params: { secretName },
            body: { workspaceId, environment, secretPath: "/", secretValue: "v" },
          });
        }
        for (const environment of ["staging", "prod"]) {
          await service(endpoints["secretImports.create"], {
            body: { workspaceId, environment: "dev", path: "/", import: { environment, path: "/" } },
          });
        }
        await service(endpoints["folders.create"], {
          body: { workspaceId, environment: "dev", name: "billing", path: "/" },
        });
        await page.goto(`/projects/${project.id}/secret-imports?environment=dev`);
        await expect(page.getByText("overridden by prod:/")).toBeVisible();
        await expect(page.getByRole("navigation", { name: "Folders in dev:/" })).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);

        await page.getByRole("button", { name: "Add import", exact: true }).click();
        const add = page.getByRole("dialog", { name: "Add import" });
        await add.getByRole("button", { name: "Add import" }).click();
        await expect(add.getByText("Choose the environment to import from")).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
        await page.keyboard.press("Escape");

        await page.getByRole("button", { name: "Remove import prod:/" }).click();
        await expect(page.getByRole("alertdialog")).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
        await page.keyboard.press("Escape");

        await page.goto(`/projects/${project.id}/integrations`);
        await expect(page.getByRole("heading", { name: "No integrations in this project" })).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);

        const { integrationAuth } = await service(endpoints["integrationAuths.create"], {
          body: { workspaceId, integration: "github", accessToken: uniqueName("token") },
        });
        await service(endpoints["integrations.create"], {
          body: { integrationAuthId: integrationAuth.id, sourceEnvironment: "dev", secretPath: "/", app: "acme/api" },
        });
        await page.reload();
        await expect(page.getByRole("table", { name: "Integrations" }).getByText("acme/api")).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);

        await page.getByRole("button", { name: /^Delete integration acme\/api/ }).click();
        await expect(page.getByRole("alertdialog")).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
      } finally {
        await service(endpoints["projects.delete"], { params: { workspaceId: project.id } });
      }
    });

    test("secrets page, its dialogs and a revealed value have no serious accessibility violations", async ({
      signedIn: page,
      service,
    }) => {
      const { project } = await service(endpoints["projects.create"], {
        body: { projectName: uniqueName("a11y-secrets"), shouldCreateDefaultEnvs: true },
      });
      try {
        const where = { workspaceId: project.id, environment: "dev" };
        const { workspaceTag } = await service(endpoints["tags.create"], {
          params: { workspaceId: project.id },
          body: { slug: "backend", color: "#2f80ed" },
        });
        await service(endpoints["folders.create"], { body: { ...where, path: "/", name: "app" } });
        for (const key of ["DATABASE_URL", "REDIS_URL"]) {
          await service(endpoints["secrets.create"], {
            params: { secretName: key },
            body: {
              ...where,
              secretPath: "/",
              secretValue: `${key}-value`,
              secretComment: "e2e",
              tagIds: [workspaceTag.id],
            },
          });
        }
        await page.goto(`/projects/${project.id}/secrets`);
        await expect(page.getByRole("button", { name: "Open REDIS_URL" })).toBeVisible();
        await page.getByRole("button", { name: "Reveal value of REDIS_URL" }).click();
        await expect(page.getByText("REDIS_URL-value")).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);

        await page.getByRole("button", { name: "Edit value of DATABASE_URL" }).click();
        await expect(page.getByRole("textbox", { name: "New value of DATABASE_URL" })).toHaveValue(
          "DATABASE_URL-value",
        );
        expect(await seriousViolations(page)).toEqual([]);
        await page.keyboard.press("Escape");

        await page.getByRole("button", { name: "Create secret" }).click();
        await expect(
          page.getByRole("dialog", { name: "Create secret" }).getByRole("checkbox", { name: "backend" }),
        ).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
        await page.keyboard.press("Escape");

        await page.getByRole("button", { name: "Delete folder app" }).click();
        await expect(page.getByRole("alertdialog")).toContainText("will be deleted");
        expect(await seriousViolations(page)).toEqual([]);
        await page.keyboard.press("Escape");

        // A delete is staged: the row is marked, the review lists it, and saving asks first.
        await page.getByRole("button", { name: "Delete REDIS_URL" }).click();
        const pending = page.getByRole("region", { name: "Pending changes" });
        await pending.getByRole("button", { name: "Review changes (1)" }).click();
        await expect(page.getByRole("dialog", { name: "Review changes (1)" })).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
        await page.keyboard.press("Escape");
        await pending.getByRole("button", { name: "Save 1 change" }).click();
        await expect(page.getByRole("alertdialog")).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
        await page.keyboard.press("Escape");

        await page.getByRole("searchbox", { name: "Search secrets by key" }).fill("nothing-matches");
        await expect(page.getByRole("heading", { name: "No secrets match" })).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
      } finally {
        await service(endpoints["projects.delete"], { params: { workspaceId: project.id } });
      }
    });

    test("secret drawer and its version diff have no serious accessibility violations", async ({
      signedIn: page,
      service,
    }) => {
      const { project } = await service(endpoints["projects.create"], {
        body: { projectName: uniqueName("a11y-drawer"), shouldCreateDefaultEnvs: true },
      });
      try {
        const at = { workspaceId: project.id, environment: "dev", secretPath: "/" };
        const { workspaceTag } = await service(endpoints["tags.create"], {
          params: { workspaceId: project.id },
          body: { slug: "backend", color: "#6366f1" },
        });
        await service(endpoints["secrets.create"], {
          params: { secretName: "DATABASE_URL" },
          body: {
            ...at,
            secretValue: "postgres://db/one\nsslmode=require",
            secretComment: "primary",
            tagIds: [workspaceTag.id],
          },
        });
        await service(endpoints["secrets.update"], {
          params: { secretName: "DATABASE_URL" },
          body: {
            ...at,
            secretValue: "postgres://db/two\nsslmode=require",
            secretMetadata: [{ key: "owner", value: "ops" }],
          },
        });
        await page.goto(`/projects/${project.id}/secrets?env=dev`);
        await page.getByRole("button", { name: "Open DATABASE_URL", exact: true }).click();
        const drawer = page.getByRole("dialog", { name: "DATABASE_URL" });
        await expect(drawer.getByRole("checkbox", { name: "backend" })).toBeChecked();
        await drawer.getByRole("button", { name: "Reveal value" }).click();
        await drawer.getByLabel("Repeat every (days)").fill("0");
        await drawer.getByLabel("Comment").click();
        await expect(drawer.getByText("A whole number of days from 1 to 365")).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
        await drawer.getByRole("button", { name: "Discard changes" }).click();

        await drawer.getByRole("tab", { name: "Version history" }).click();
        await expect(drawer.getByRole("list", { name: "Value: version 1 → version 2" })).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
        await drawer.getByRole("button", { name: "Reveal values" }).click();
        await drawer.getByRole("button", { name: /^Version 1/ }).click();
        await drawer.getByText("Current value", { exact: true }).click();
        await expect(drawer.getByRole("list", { name: "Value: version 1 → current" })).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);

        await drawer.getByRole("button", { name: "Restore version 1" }).click();
        await expect(page.getByRole("alertdialog")).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
      } finally {
        await service(endpoints["projects.delete"], { params: { workspaceId: project.id } });
      }
    });
  });
}
