import { endpoints } from "@keyhold/contract";
import type { Locator, Page, Request } from "@playwright/test";
import { expect, test } from "../support/fixtures.ts";
import { acknowledgeUnrestricted, methodRow } from "../support/identities.ts";

/** The requests of one method and verb the page sends, counted as they go. */
function sent(page: Page, method: string, path: RegExp): Request[] {
  const requests: Request[] = [];
  page.on("request", (request) => {
    if (request.method() === method && path.test(new URL(request.url()).pathname)) requests.push(request);
  });
  return requests;
}

const restricted = [{ ipAddress: "10.0.0.0/8" }];

/** Closes a form holding changes, confirming that they are to be dropped. */
async function discard(page: Page, dialog: Locator) {
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Discard changes" }).click();
  // Under the open question the form is outside the accessibility tree, where it counts as hidden
  // already: wait for the question to close first.
  await expect(page.getByRole("alertdialog")).toBeHidden();
  await expect(dialog).toBeHidden();
}

for (const theme of ["light", "dark"] as const) {
  test.describe(`${theme} theme`, () => {
    test.use({ colorScheme: theme });

    test("a method that admits anyone says so and saves only once that is acknowledged", async ({
      signedIn: page,
      seededIdentity,
      service,
    }) => {
      const identityId = seededIdentity.identity.id;
      const attaches = sent(page, "POST", /\/auth\/aws-auth\/identities\//);
      await page.goto(`/identities/${identityId}`);
      await methodRow(page, "AWS auth").getByRole("button", { name: "Attach AWS auth" }).click();
      const dialog = page.getByRole("dialog", { name: "Attach AWS auth" });

      // Each open field says what empty means, and the form lists what the method would admit.
      await expect(dialog.getByLabel("Allowed account IDs")).toHaveAccessibleDescription(
        /Empty admits any AWS account\./,
      );
      await expect(dialog.getByLabel("Allowed principal ARNs")).toHaveAccessibleDescription(
        /Empty admits any IAM principal\./,
      );
      const warning = dialog.getByRole("group", { name: "Saved like this, AWS auth admits:" });
      await expect(warning.getByRole("listitem")).toHaveText([
        "any IAM principal (Allowed principal ARNs)",
        "any AWS account (Allowed account IDs)",
        "any address (Access token trusted IPs)",
      ]);

      // Saving is refused until the box is ticked, and the box is brought to the person.
      await dialog.getByRole("button", { name: "Attach AWS auth" }).click();
      const box = warning.getByRole("checkbox", { name: "I understand this admits all of the above" });
      await expect(box).toBeFocused();
      await expect(warning).toContainText("Confirm that you mean to admit this before saving");
      await expect(dialog).toBeVisible();
      expect(attaches).toHaveLength(0);

      // Ticked for one set of open fields, it is not ticked for another.
      await acknowledgeUnrestricted(dialog);
      await dialog.getByLabel("Allowed account IDs").fill("123456789012");
      await expect(warning.getByRole("listitem")).toHaveCount(2);
      await expect(box).not.toBeChecked();
      await acknowledgeUnrestricted(dialog);
      await dialog.getByRole("button", { name: "Attach AWS auth" }).click();
      await expect(dialog).toBeHidden();
      expect(attaches).toHaveLength(1);
      // The acknowledgement stays in the console: the server gets the same body as before.
      expect(Object.keys(attaches[0]?.postDataJSON() as object).sort()).toEqual([
        "accessTokenMaxTTL",
        "accessTokenNumUsesLimit",
        "accessTokenTTL",
        "accessTokenTrustedIps",
        "allowedAccountIds",
        "allowedPrincipalArns",
        "stsEndpoint",
      ]);
      const { identityAwsAuth } = await service(endpoints["awsAuth.get"], { params: { identityId } });
      expect(identityAwsAuth.allowedAccountIds).toBe("123456789012");

      // Kubernetes: the three empty who-may-sign-in fields, each marked where it is.
      await methodRow(page, "Kubernetes auth").getByRole("button", { name: "Attach Kubernetes auth" }).click();
      const k8s = page.getByRole("dialog", { name: "Attach Kubernetes auth" });
      await expect(k8s.getByLabel("Allowed namespaces")).toHaveAccessibleDescription(/Empty admits any namespace\./);
      await expect(k8s.getByText("Admits any namespace", { exact: true })).toBeVisible();
      await expect(k8s.getByRole("group", { name: "Saved like this, Kubernetes auth admits:" })).toContainText(
        "any token the API server accepts for itself (Allowed audience)",
      );
    });

    test("a TTL above the max TTL is refused in the form; a refusal is shown on its field or at the top", async ({
      signedIn: page,
      seededIdentity,
      memberIdentity,
      service,
    }) => {
      const identityId = seededIdentity.identity.id;
      await service(endpoints["tokenAuth.attach"], {
        params: { identityId },
        body: { accessTokenTTL: 3_600, accessTokenMaxTTL: 3_600, accessTokenTrustedIps: restricted },
      });
      await service(endpoints["universalAuth.attach"], {
        params: { identityId },
        body: { clientSecretTrustedIps: restricted, accessTokenTrustedIps: restricted },
      });
      const updates = sent(page, "PATCH", /\/auth\/token-auth\/identities\//);
      await page.goto(`/identities/${identityId}`);

      // 7200 seconds against a max of one hour: marked as typed, with no expiry to show.
      await methodRow(page, "Token auth").getByRole("button", { name: "Edit Token auth" }).click();
      const token = page.getByRole("dialog", { name: "Edit Token auth" });
      const ttl = token.getByLabel("Access token TTL", { exact: true });
      await expect(ttl).toHaveAccessibleDescription(/1 hour: a token issued now expires/);
      await ttl.fill("7200");
      await expect(ttl).toHaveAttribute("aria-invalid", "true");
      await expect(ttl).toHaveAccessibleDescription(/Cannot exceed the access token max TTL \(1 hour\)/);
      await expect(ttl).not.toHaveAccessibleDescription(/expires/);
      await token.getByRole("button", { name: "Save changes" }).click();
      await expect(ttl).toBeFocused();
      await expect(token).toBeVisible();
      expect(updates).toHaveLength(0);
      await discard(page, token);

      // A refusal naming a field the form could not foresee (a uses limit changed on its way): the field
      // is marked and brought into view, wherever the form was scrolled.
      await page.route(/\/auth\/universal-auth\/identities\/[^/]+$/, async (route) => {
        const request = route.request();
        if (request.method() !== "PATCH") return route.continue();
        const body = request.postDataJSON() as Record<string, unknown>;
        return route.continue({ postData: JSON.stringify({ ...body, accessTokenNumUsesLimit: -1 }) });
      });
      await methodRow(page, "Universal auth").getByRole("button", { name: "Edit Universal auth" }).click();
      const universal = page.getByRole("dialog", { name: "Edit Universal auth" });
      const uses = universal.getByLabel("Uses limit");
      await uses.fill("5");
      await universal.getByLabel("Client secret trusted IPs, row 1").focus();
      await expect(uses).not.toBeInViewport();
      await universal.getByRole("button", { name: "Save changes" }).click();
      await expect(uses).toHaveAttribute("aria-invalid", "true");
      await expect(uses).toBeFocused();
      await expect(uses).toBeInViewport();
      await expect(uses).toHaveAccessibleDescription(/expected number to be >=0/i);
      await expect(universal.getByRole("alert")).toHaveCount(0);
      await discard(page, universal);

      // A refusal naming no field (attached meanwhile elsewhere) is shown at the top of the form, in view.
      const otherId = memberIdentity.identity.id;
      await page.goto(`/identities/${otherId}`);
      await methodRow(page, "Universal auth").getByRole("button", { name: "Attach Universal auth" }).click();
      const attach = page.getByRole("dialog", { name: "Attach Universal auth" });
      await acknowledgeUnrestricted(attach);
      await service(endpoints["universalAuth.attach"], { params: { identityId: otherId }, body: {} });
      await attach.getByRole("button", { name: "Attach Universal auth" }).click();
      const alert = attach.getByRole("alert");
      await expect(alert).toContainText("already attached");
      await expect(alert).toBeInViewport();
      const alertBox = await alert.boundingBox();
      const firstField = await attach.getByText("Client secrets", { exact: true }).boundingBox();
      expect(alertBox && firstField && alertBox.y < firstField.y).toBe(true);
    });

    test("universal auth's card says where a sign-in and where a token's use are accepted from", async ({
      signedIn: page,
      seededIdentity,
      service,
    }) => {
      const identityId = seededIdentity.identity.id;
      await service(endpoints["universalAuth.attach"], {
        params: { identityId },
        body: { clientSecretTrustedIps: [{ ipAddress: "10.0.0.0/8" }, { ipAddress: "203.0.113.7" }] },
      });
      await service(endpoints["kubernetesAuth.attach"], {
        params: { identityId },
        body: {
          kubernetesHost: "https://k8s.example.com",
          allowedNamespaces: "ci",
          allowedNames: "",
          allowedAudience: "",
          accessTokenTrustedIps: restricted,
        },
      });
      await page.goto(`/identities/${identityId}`);

      const settings = (label: string) => methodRow(page, label).getByLabel(`${label} settings`);
      const universal = settings("Universal auth");
      await expect(universal.getByRole("term")).toContainText(["Sign-ins accepted from", "Token use accepted from"]);
      const value = (list: typeof universal, term: string) =>
        list
          .locator("div")
          .filter({ has: page.getByRole("term").filter({ hasText: term }) })
          .getByRole("definition");
      await expect(value(universal, "Sign-ins accepted from")).toHaveText("10.0.0.0/8, 203.0.113.7");
      await expect(value(universal, "Token use accepted from")).toHaveText("Any address");
      await expect(methodRow(page, "Universal auth")).not.toContainText("from anywhere");

      // The other cards show every setting that decides who may sign in, open ones said as such.
      const k8s = settings("Kubernetes auth");
      await expect(value(k8s, "Namespaces")).toHaveText("ci");
      await expect(value(k8s, "Service accounts")).toHaveText("Any service account");
      await expect(value(k8s, "Audience")).toHaveText("Any token the API server accepts for itself");
      await expect(value(k8s, "Token use accepted from")).toHaveText("10.0.0.0/8");
    });

    test("the trusted-IP editor writes a block with its host bits cleared and flags entries inside another", async ({
      signedIn: page,
      seededIdentity,
      service,
    }) => {
      const identityId = seededIdentity.identity.id;
      await page.goto(`/identities/${identityId}`);
      await methodRow(page, "Token auth").getByRole("button", { name: "Attach Token auth" }).click();
      const dialog = page.getByRole("dialog", { name: "Attach Token auth" });
      const row = (n: number) => dialog.getByLabel(`Access token trusted IPs, row ${n}`);
      const add = dialog.getByRole("button", { name: "Add address" });

      await row(1).fill("203.0.113.7/24");
      await expect(row(1)).toHaveAccessibleDescription("Saved as 203.0.113.0/24 (host bits cleared: the same block)");
      await row(2).fill("10.0.0.0/8");
      await add.click();
      await row(3).fill("10.1.0.0/16");
      await expect(row(3)).toHaveAccessibleDescription("Inside 10.0.0.0/8 (row 2): this entry adds nothing.");
      await add.click();
      await row(4).fill("2001:db8:5::1");
      await add.click();
      await row(5).fill("2001:db8::/32");
      await expect(row(4)).toHaveAccessibleDescription("Inside 2001:db8::/32 (row 5): this entry adds nothing.");
      await expect(row(5)).not.toHaveAccessibleDescription(/Inside/);

      // Nothing is open any more, so nothing needs acknowledging; the blocks are saved as written above.
      await expect(dialog.getByRole("checkbox")).toHaveCount(0);
      await dialog.getByRole("button", { name: "Attach Token auth" }).click();
      await expect(dialog).toBeHidden();
      const { identityTokenAuth } = await service(endpoints["tokenAuth.get"], { params: { identityId } });
      expect(identityTokenAuth.accessTokenTrustedIps.map((ip) => `${ip.ipAddress}/${ip.prefix ?? ""}`)).toEqual([
        "203.0.113.0/24",
        "10.0.0.0/8",
        "10.1.0.0/16",
        "2001:db8:5::1/",
        "2001:db8::/32",
      ]);
    });
  });
}
