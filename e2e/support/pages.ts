import { type BffSession, endpoints, type Project } from "@keyhold/contract";
import type { Page } from "@playwright/test";
import { ignoreNotFound, type ServiceCall } from "./api.ts";
import { expect, uniqueName } from "./fixtures.ts";
import { animationsSettled } from "./layout.ts";

/**
 * Every page of the console, and the dialogs and drawers opened from them, seeded with enough
 * data to fill them: a project with environments, folders, tags, secrets, imports, a custom role,
 * an integration and an identity with auth methods, credentials, a membership and privileges.
 * The layout spec walks it at a phone's width; the screenshot tour walks it at every width.
 */
export interface World {
  project: Project;
  identity: { id: string; name: string };
  /** An identity with no auth method, membership or metadata. */
  bareIdentity: { id: string; name: string };
  roleSlug: string;
  /** The folder the secrets and imports pages open on. */
  folder: { environment: string; secretPath: string };
}

export interface Stop {
  /** A short file-name-safe name. */
  name: string;
  /** Shown without a session (the sign-in page). */
  signedOut?: true;
  url: (world: World) => string;
  /** Waits until the page (and what `open` opened) shows its data. */
  ready: (page: Page, world: World) => Promise<void>;
  /** Opens a dialog or drawer once the page is ready. */
  open?: (page: Page, world: World) => Promise<void>;
}

const h1 = (page: Page, name: string) =>
  expect(page.getByRole("heading", { level: 1, name, exact: true })).toBeVisible();

const dialog = async (page: Page, button: string, name: string | RegExp = button) => {
  await page.getByRole("button", { name: button, exact: true }).first().click();
  const opened = page.getByRole("dialog", { name });
  await expect(opened).toBeVisible();
  // A dialog's form (and what it reads) loads when the dialog opens.
  await expect(opened.getByText(/^\s*Loading .*…\s*$/)).toHaveCount(0);
};

/** Opens a confirmation (an alert dialog) and waits for what it counts. */
const confirmation = async (page: Page, button: string) => {
  await page.getByRole("button", { name: button, exact: true }).first().click();
  const opened = page.getByRole("alertdialog");
  await expect(opened).toBeVisible();
  await expect(opened.getByText(/^\s*(Loading|Counting) .*…\s*$/)).toHaveCount(0);
};

const secretKeys = [
  "DATABASE_URL",
  "PAYMENTS_GATEWAY_WEBHOOK_SIGNING_SECRET",
  "STRIPE_SECRET_KEY",
  "REDIS_URL",
  "SENTRY_DSN",
  "OAUTH_CLIENT_SECRET",
  "FEATURE_FLAGS_SDK_KEY",
  "SMTP_PASSWORD",
];

export async function seedWorld(
  service: ServiceCall,
  session: BffSession,
): Promise<World & { remove(): Promise<void> }> {
  const { project } = await service(endpoints["projects.create"], {
    body: {
      projectName: uniqueName("Payments API"),
      projectDescription: "Card payments, payouts and the webhooks that reconcile them with the ledger",
      shouldCreateDefaultEnvs: true,
    },
  });
  const { identity } = await service(endpoints["identities.create"], {
    body: {
      name: uniqueName("ci-deployer"),
      organizationId: session.organization.id,
      role: "member",
      metadata: [
        { key: "team", value: "platform" },
        { key: "runbook", value: "https://wiki.example.com/platform/runbooks/ci-deployer-credentials-rotation" },
      ],
    },
  });
  const { identity: bare } = await service(endpoints["identities.create"], {
    body: { name: uniqueName("metrics-reader"), organizationId: session.organization.id, role: "member" },
  });
  const remove = async () => {
    await ignoreNotFound(service(endpoints["projects.delete"], { params: { workspaceId: project.id } }));
    for (const identityId of [identity.id, bare.id]) {
      await ignoreNotFound(service(endpoints["identities.delete"], { params: { identityId } }));
    }
  };
  try {
    const workspaceId = project.id;
    const projectId = project.id;
    await service(endpoints["environments.create"], {
      params: { workspaceId },
      body: { name: "QA Europe (Frankfurt)", slug: "qa-europe-frankfurt" },
    });
    const tags = await Promise.all(
      (
        [
          ["backend", "#2f80ed"],
          ["payments", "#27ae60"],
          ["rotate-monthly", "#eb5757"],
        ] as const
      ).map(
        async ([slug, color]) =>
          (await service(endpoints["tags.create"], { params: { workspaceId }, body: { slug, color } })).workspaceTag,
      ),
    );
    const folder = (environment: string, path: string, name: string) =>
      service(endpoints["folders.create"], { body: { workspaceId, environment, path, name } });
    await folder("dev", "/", "app");
    await folder("dev", "/app", "api");
    await folder("dev", "/app", "workers");
    await folder("dev", "/", "jobs");
    await folder("prod", "/", "shared");
    await folder("staging", "/", "database");
    const secret = (environment: string, secretPath: string, key: string, i: number) =>
      service(endpoints["secrets.create"], {
        params: { secretName: key },
        body: {
          workspaceId,
          environment,
          secretPath,
          secretValue: `${key.toLowerCase()}-${"x".repeat(10 + i * 4)}`,
          secretComment:
            i % 2 === 0 ? `Used by the ${key.split("_")[0]?.toLowerCase()} service and its nightly jobs` : "",
          tagIds: tags.filter((_, t) => (i + t) % 3 === 0).map((tag) => tag.id),
        },
      });
    await Promise.all(secretKeys.map((key, i) => secret("dev", "/app", key, i)));
    await Promise.all(secretKeys.slice(0, 3).map((key, i) => secret("prod", "/shared", key, i)));
    await Promise.all(secretKeys.slice(3, 6).map((key, i) => secret("staging", "/database", key, i)));
    for (const [environment, path] of [
      ["prod", "/shared"],
      ["staging", "/database"],
    ] as const) {
      await service(endpoints["secretImports.create"], {
        body: { workspaceId, environment: "dev", path: "/app", import: { environment, path } },
      });
    }

    const roleSlug = "dev-secret-reader";
    await service(endpoints["projectRoles.create"], {
      params: { projectId },
      body: {
        name: "Dev secret reader",
        slug: roleSlug,
        description: "Reads secrets in development, except the payment provider's keys",
        permissions: [
          {
            subject: "secrets",
            action: ["describeSecret", "readValue"],
            conditions: {
              environment: "dev",
              secretPath: { $glob: "/app/**" },
              secretTags: { $in: ["backend", "payments"] },
            },
          },
          {
            subject: "secrets",
            action: ["readValue"],
            inverted: true,
            conditions: { secretName: { $glob: "STRIPE_*" } },
          },
          { subject: "secret-folders", action: ["read"] },
          { subject: "role", action: ["read"] },
        ],
      },
    });

    const { integrationAuth } = await service(endpoints["integrationAuths.create"], {
      body: { workspaceId, integration: "github", accessToken: uniqueName("ghp") },
    });
    await service(endpoints["integrations.create"], {
      body: {
        integrationAuthId: integrationAuth.id,
        sourceEnvironment: "staging",
        secretPath: "/database",
        app: "acme-payments/checkout-service",
        owner: "acme-payments",
      },
    });

    const identityId = identity.id;
    await service(endpoints["tokenAuth.attach"], { params: { identityId }, body: {} });
    await service(endpoints["tokenAuth.createToken"], { params: { identityId }, body: { name: "release-pipeline" } });
    await service(endpoints["universalAuth.attach"], {
      params: { identityId },
      body: { clientSecretTrustedIps: [{ ipAddress: "10.0.0.0/8" }, { ipAddress: "2001:db8::/32" }] },
    });
    await service(endpoints["universalAuth.createClientSecret"], {
      params: { identityId },
      body: { description: "GitHub Actions deploy workflow", ttl: 2_592_000, numUsesLimit: 100 },
    });
    await service(endpoints["kubernetesAuth.attach"], {
      params: { identityId },
      body: {
        kubernetesHost: "https://kubernetes.platform-cluster.internal.example.com:6443",
        tokenReviewerJwt: "reviewer.jwt",
        allowedNamespaces: "ci, deployments, platform-tooling, observability",
        allowedNames: "deployer",
        allowedAudience: "",
      },
    });
    const now = Date.now();
    await service(endpoints["identityMemberships.add"], {
      params: { projectId, identityId },
      body: {
        roles: [
          { role: "member", isTemporary: false },
          {
            role: roleSlug,
            isTemporary: true,
            temporaryMode: "relative",
            temporaryRange: "4h",
            temporaryAccessStartTime: new Date(now).toISOString(),
          },
        ],
      },
    });
    await service(endpoints["identityPrivileges.create"], {
      body: {
        identityId,
        projectId,
        slug: "prod-hotfix-window",
        permissions: [{ subject: "secrets", action: ["edit"], conditions: { environment: "prod" } }],
        type: {
          isTemporary: true,
          temporaryMode: "relative",
          temporaryRange: "30m",
          temporaryAccessStartTime: new Date(now).toISOString(),
        },
      },
    });
    await service(endpoints["projectUsers.invite"], {
      params: { projectId },
      body: { emails: ["ada.lovelace@example.com", "grace.hopper@example.com"], roleSlugs: ["viewer"] },
    });

    return {
      project,
      identity: { id: identity.id, name: identity.name },
      bareIdentity: { id: bare.id, name: bare.name },
      roleSlug,
      folder: { environment: "dev", secretPath: "/app" },
      remove,
    };
  } catch (error) {
    await remove();
    throw error;
  }
}

const secretsUrl = (w: World) =>
  `/projects/${w.project.id}/secrets?env=${w.folder.environment}&path=${w.folder.secretPath}`;
const importsUrl = (w: World) =>
  `/projects/${w.project.id}/secret-imports?env=${w.folder.environment}&path=${w.folder.secretPath}`;
/** A pasted .env for the import preview: two changed keys, one unchanged, new ones and three invalid lines. */
const importSample = [
  "# Rotated on Monday",
  "DATABASE_URL=postgres://payments:rotated@db.internal:5432/payments?sslmode=require",
  "STRIPE_SECRET_KEY=sk_live_rotated_0001",
  `REDIS_URL=redis_url-${"x".repeat(22)}`,
  "PAYOUTS_WEBHOOK_URL=https://payouts.internal/hooks/ledger",
  "LEDGER_API_TOKEN=tok_ledger_7f3a",
  'RECONCILE_CERT="-----BEGIN CERTIFICATE-----',
  "MIIB...",
  '-----END CERTIFICATE-----"',
  "FEATURE FLAGS=on",
  'SMTP_PASSWORD="never closed',
  "LEDGER_API_TOKEN=tok_ledger_8b1c",
].join("\n");
const overviewUrl = (w: World) => `/projects/${w.project.id}/overview?path=${w.folder.secretPath}`;
const overviewReady = async (page: Page) => {
  await h1(page, "Secrets overview");
  await expect(
    page.getByRole("table", { name: "Secrets across environments" }).getByText("DATABASE_URL", { exact: true }),
  ).toBeVisible();
};
const secretsReady = async (page: Page) => {
  await h1(page, "Secrets");
  await expect(page.getByRole("button", { name: "Open DATABASE_URL", exact: true })).toBeVisible();
};
const identityReady = async (page: Page, w: World) => {
  await h1(page, w.identity.name);
  await expect(page.getByRole("region", { name: "Access tokens" }).getByText("release-pipeline")).toBeVisible();
};
const accessReady = async (page: Page, w: World) => {
  await h1(page, "Access");
  await expect(page.getByRole("table", { name: "Project identities" }).getByText(w.identity.name)).toBeVisible();
};

export const everyPage: Stop[] = [
  {
    name: "sign-in",
    signedOut: true,
    url: () => "/sign-in",
    ready: (page) => expect(page.getByRole("button", { name: "Sign in" })).toBeVisible(),
  },
  {
    name: "identities",
    url: (w) => `/identities?q=${encodeURIComponent(w.identity.name)}`,
    ready: (page, w) => expect(page.getByRole("link", { name: w.identity.name, exact: true })).toBeVisible(),
  },
  {
    name: "identities-create",
    url: () => "/identities",
    ready: (page) => h1(page, "Identities"),
    open: async (page) => {
      await dialog(page, "Create identity");
      await expect(page.getByRole("dialog").getByLabel("Name")).toBeVisible();
    },
  },
  { name: "identity", url: (w) => `/identities/${w.identity.id}`, ready: identityReady },
  {
    name: "identity-edit",
    url: (w) => `/identities/${w.identity.id}/edit`,
    ready: (page) => expect(page.getByRole("button", { name: "Save changes" })).toBeVisible(),
  },
  ...(
    [
      ["Edit", "Universal auth"],
      ["Edit", "Kubernetes auth"],
      ["Attach", "OIDC auth"],
      ["Attach", "AWS auth"],
    ] as const
  ).map(
    ([action, method]): Stop => ({
      name: `identity-${method.split(" ")[0]?.toLowerCase()}-form`,
      url: (w) => `/identities/${w.identity.id}`,
      ready: identityReady,
      open: (page) => dialog(page, `${action} ${method}`),
    }),
  ),
  {
    name: "identity-bare",
    url: (w) => `/identities/${w.bareIdentity.id}`,
    ready: (page, w) => h1(page, w.bareIdentity.name),
  },
  {
    name: "identity-attach-kubernetes",
    url: (w) => `/identities/${w.bareIdentity.id}`,
    ready: (page, w) => h1(page, w.bareIdentity.name),
    open: (page) => dialog(page, "Attach Kubernetes auth"),
  },
  {
    name: "identity-create-client-secret",
    url: (w) => `/identities/${w.identity.id}`,
    ready: identityReady,
    open: (page) => dialog(page, "Create client secret"),
  },
  {
    name: "identity-delete",
    url: (w) => `/identities/${w.identity.id}`,
    ready: identityReady,
    open: (page) => confirmation(page, "Delete identity"),
  },
  {
    name: "projects",
    url: () => "/projects",
    ready: (page, w) => expect(page.getByRole("link", { name: w.project.name, exact: true })).toBeVisible(),
  },
  {
    name: "projects-create",
    url: () => "/projects",
    ready: (page) => h1(page, "Projects"),
    open: (page) => dialog(page, "Create project"),
  },
  {
    name: "org-settings",
    url: () => "/settings",
    ready: (page) => expect(page.getByRole("button", { name: "Verify now" })).toBeVisible(),
  },
  {
    name: "org-settings-add-stream",
    url: () => "/settings",
    ready: (page) => h1(page, "Organization settings"),
    open: async (page) => {
      await dialog(page, "Add stream");
      await page.getByRole("dialog").getByRole("button", { name: "Add header" }).click();
    },
  },
  {
    name: "project-overview",
    url: (w) => `/projects/${w.project.id}`,
    ready: (page) =>
      expect(page.getByRole("table", { name: "Environments" }).getByText("qa-europe-frankfurt")).toBeVisible(),
  },
  {
    name: "project-environment",
    url: (w) => `/projects/${w.project.id}`,
    ready: (page) =>
      expect(page.getByRole("table", { name: "Environments" }).getByText("qa-europe-frankfurt")).toBeVisible(),
    open: (page) => dialog(page, "Rename QA Europe (Frankfurt)", "Rename environment"),
  },
  {
    name: "project-delete",
    url: (w) => `/projects/${w.project.id}`,
    ready: (page) =>
      expect(page.getByRole("table", { name: "Environments" }).getByText("qa-europe-frankfurt")).toBeVisible(),
    open: (page) => confirmation(page, "Delete project"),
  },
  { name: "secrets", url: secretsUrl, ready: secretsReady },
  {
    name: "secrets-create",
    url: secretsUrl,
    ready: secretsReady,
    open: (page) => dialog(page, "Create secret"),
  },
  {
    name: "secrets-import",
    url: secretsUrl,
    ready: secretsReady,
    open: (page) => dialog(page, "Import", "Import secrets"),
  },
  {
    name: "secrets-import-preview",
    url: secretsUrl,
    ready: secretsReady,
    open: async (page) => {
      await dialog(page, "Import", "Import secrets");
      await page.getByRole("dialog").getByLabel("Or paste the contents").fill(importSample);
      await page.getByRole("dialog").getByRole("button", { name: "Preview" }).click();
      const review = page.getByRole("dialog", { name: "Review the import" });
      await expect(review.getByRole("tab", { name: /^Changed/ })).toContainText("2");
      await review.getByRole("button", { name: "Reveal values of DATABASE_URL" }).click();
      await expect(review.getByText("database_url-x", { exact: false })).toBeVisible();
    },
  },
  {
    name: "secrets-export",
    url: secretsUrl,
    ready: secretsReady,
    open: (page) => dialog(page, "Export", "Export secrets"),
  },
  {
    name: "secret-drawer",
    url: (w) => `${secretsUrl(w)}&secret=PAYMENTS_GATEWAY_WEBHOOK_SIGNING_SECRET`,
    // The drawer opens with the page, and hides the table from assistive technology.
    ready: (page) =>
      expect(
        page.getByRole("dialog").getByRole("heading", { name: "PAYMENTS_GATEWAY_WEBHOOK_SIGNING_SECRET" }),
      ).toBeVisible(),
  },
  { name: "secrets-overview", url: overviewUrl, ready: overviewReady },
  {
    name: "secrets-overview-add-key",
    url: overviewUrl,
    ready: overviewReady,
    open: (page) => dialog(page, "Add key"),
  },
  {
    name: "secrets-overview-copy",
    url: overviewUrl,
    ready: overviewReady,
    open: (page) => dialog(page, "Copy DATABASE_URL from Development to other environments", /Copy DATABASE_URL/),
  },
  {
    name: "secret-history",
    url: (w) => `/projects/${w.project.id}/secret-history?env=${w.folder.environment}&path=${w.folder.secretPath}`,
    // The seeded folder has changes: the newest one can be opened.
    ready: (page) => expect(page.getByRole("button", { name: /^Show what change / }).first()).toBeVisible(),
  },
  {
    name: "secret-imports",
    url: importsUrl,
    ready: async (page) => {
      await h1(page, "Secret imports");
      await expect(page.getByRole("region", { name: "Imports" }).getByText("/database")).toBeVisible();
    },
  },
  {
    name: "secret-imports-add",
    url: importsUrl,
    ready: (page) => h1(page, "Secret imports"),
    open: (page) => dialog(page, "Add import"),
  },
  {
    name: "roles",
    url: (w) => `/projects/${w.project.id}/roles`,
    ready: (page) => expect(page.getByRole("link", { name: "Dev secret reader" })).toBeVisible(),
  },
  {
    name: "role",
    url: (w) => `/projects/${w.project.id}/roles/${w.roleSlug}`,
    ready: async (page) => {
      await h1(page, "Dev secret reader");
      await expect(page.getByRole("group", { name: "Secrets", exact: true })).toBeVisible();
    },
  },
  {
    name: "role-delete",
    url: (w) => `/projects/${w.project.id}/roles/${w.roleSlug}`,
    ready: (page) => h1(page, "Dev secret reader"),
    open: (page) => confirmation(page, "Delete role"),
  },
  {
    name: "roles-create",
    url: (w) => `/projects/${w.project.id}/roles`,
    ready: (page) => h1(page, "Roles"),
    open: (page) => dialog(page, "Create role"),
  },
  { name: "access", url: (w) => `/projects/${w.project.id}/access`, ready: accessReady },
  {
    name: "access-add-identity",
    url: (w) => `/projects/${w.project.id}/access`,
    ready: accessReady,
    open: (page) => dialog(page, "Add identity", "Add identity to project"),
  },
  {
    name: "access-privileges",
    url: (w) => `/projects/${w.project.id}/access?identity=${w.identity.id}`,
    ready: (page) => expect(page.getByRole("cell", { name: "prod-hotfix-window", exact: true })).toBeVisible(),
  },
  {
    name: "access-privilege-edit",
    url: (w) => `/projects/${w.project.id}/access?identity=${w.identity.id}`,
    ready: (page) => expect(page.getByRole("cell", { name: "prod-hotfix-window", exact: true })).toBeVisible(),
    open: (page) => dialog(page, "Edit privilege prod-hotfix-window"),
  },
  {
    name: "access-users",
    url: (w) => `/projects/${w.project.id}/access?tab=users`,
    ready: (page) =>
      expect(page.getByRole("table", { name: "Project users" }).getByText("ada.lovelace@example.com")).toBeVisible(),
  },
  {
    name: "access-invite-users",
    url: (w) => `/projects/${w.project.id}/access?tab=users`,
    ready: (page) =>
      expect(page.getByRole("table", { name: "Project users" }).getByText("ada.lovelace@example.com")).toBeVisible(),
    open: (page) => dialog(page, "Invite users"),
  },
  {
    name: "integrations",
    url: (w) => `/projects/${w.project.id}/integrations`,
    ready: (page) => expect(page.getByText("acme-payments/checkout-service")).toBeVisible(),
  },
  {
    name: "not-found",
    url: () => "/projects/00000000-0000-4000-8000-000000000000",
    ready: (page) => expect(page.getByRole("heading", { name: "This page does not exist" })).toBeVisible(),
  },
];

/** Opens one stop: signs out first where it is the signed-out page, waits for its data, opens its dialog. */
export async function visit(page: Page, stop: Stop, world: World): Promise<void> {
  await page.goto(stop.url(world));
  await stop.ready(page, world);
  if (stop.open) await stop.open(page, world);
  // Dialogs and drawers animate in; measure and photograph them at rest.
  await animationsSettled(page);
}
