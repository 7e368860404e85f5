import { mkdirSync } from "node:fs";
import { endpoints } from "@keyhold/contract";
import { ignoreNotFound } from "../support/api.ts";
import { csrf, uniqueName } from "../support/fixtures.ts";
import { sidewaysOverflow, widestElements } from "../support/layout.ts";
import { expect, PROVIDER_NAME, signInAtProvider, test } from "../support/sso-stack.ts";

const dir = process.env.KEYHOLD_SCREENSHOT_DIR ?? new URL("../screenshots/", import.meta.url).pathname;
mkdirSync(dir, { recursive: true });

/**
 * Single sign-on's screens in both themes at a phone's width and a desktop's: the sign-in page
 * offering the provider (and telling why a sign-in was refused), the header naming the person,
 * the set-up page after a test sign-in, and the test window's page.
 */
for (const theme of ["light", "dark"] as const) {
  for (const width of [390, 1440] as const) {
    test(`single sign-on in the ${theme} theme at ${width} px`, async ({ page, sso, person, adminToken, service }) => {
      await page.emulateMedia({ colorScheme: theme });
      await page.setViewportSize({ width, height: 900 });
      const shot = async (name: string, fullPage = false) => {
        expect(await sidewaysOverflow(page), `${name}: sideways overflow by ${await widestElements(page)}`).toBe(0);
        await page.screenshot({ path: `${dir}${theme}-${width}-${name}.png`, fullPage });
      };

      // Refused first, for the sign-in page's message.
      const mallory = person(["contractors"]);
      await page.goto(sso.url("/sign-in"));
      await expect(page.getByRole("link", { name: `Sign in with ${PROVIDER_NAME}` })).toBeVisible();
      await shot("sso-sign-in");
      await page.getByRole("link", { name: `Sign in with ${PROVIDER_NAME}` }).click();
      await signInAtProvider(page, mallory);
      await expect(page.getByRole("alert")).toBeVisible();
      await shot("sso-sign-in-refused");

      // A new visit: the provider's session is the refused person's.
      await page.context().clearCookies();
      const eve = person(["platform"]);
      await page.getByRole("link", { name: `Sign in with ${PROVIDER_NAME}` }).click();
      await signInAtProvider(page, eve);
      await expect(page.getByRole("heading", { level: 1, name: "Identities" })).toBeVisible();
      const account = page.getByRole("button", { name: `Account: ${eve.email}` });
      await expect(account).toBeVisible();
      await shot("sso-header");
      await account.click();
      await expect(page.getByRole("menu")).toBeVisible();
      await shot("sso-user-menu");
      await page.keyboard.press("Escape");

      // The set-up page, as an admin signed in with the admin token on the same console.
      await page.context().clearCookies();
      const login = await page.request.post(sso.url("/bff/login"), {
        headers: csrf,
        data: { accessToken: adminToken },
      });
      expect(login.status()).toBe(200);
      await page.goto(sso.url("/settings/sign-in"));
      const step = page.getByRole("region", { name: "Choose the identity people sign in as" });
      await expect(step).toBeVisible();
      await shot("sso-setup", true);
      const name = uniqueName("e2e-sso-shot");
      await step.getByLabel("Name").fill(name);
      await step.getByLabel("Bound claim (optional)").fill("groups");
      await step.getByLabel("Allowed values").fill("platform");
      await step.getByRole("button", { name: "Create identity with OIDC auth" }).click();
      await expect(step.getByRole("status")).toContainText(name);
      const line = await page.getByLabel("Identity configuration", { exact: true }).textContent();
      const identityId = /KEYHOLD_OIDC_IDENTITY_ID=([0-9a-f-]{36})/.exec(line ?? "")?.[1];
      try {
        const testStep = page.getByRole("region", { name: "Test a sign-in" });
        const [popup] = await Promise.all([
          page.waitForEvent("popup"),
          testStep.getByRole("button", { name: "Test sign-in" }).click(),
        ]);
        await popup.emulateMedia({ colorScheme: theme });
        await popup.setViewportSize({ width: Math.min(width, 520), height: 720 });
        await signInAtProvider(popup, eve);
        await expect(popup.getByRole("status")).toContainText("Test sign-in passed");
        await popup.screenshot({ path: `${dir}${theme}-${width}-sso-test-window.png` });
        await popup.close();
        await expect(testStep.getByRole("status")).toContainText("Test sign-in passed");
        await page.evaluate(() => window.scrollTo(0, 0));
        await shot("sso-setup-tested", true);
      } finally {
        if (identityId) await ignoreNotFound(service(endpoints["identities.delete"], { params: { identityId } }));
      }
    });
  }
}

/** The set-up page of a console whose BFF has no provider yet: what to register, and what to set. */
for (const theme of ["light", "dark"] as const) {
  for (const width of [390, 1440] as const) {
    test(`single sign-on set-up while off, in the ${theme} theme at ${width} px`, async ({ signedIn: page }) => {
      await page.emulateMedia({ colorScheme: theme });
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/settings/sign-in");
      await expect(page.getByLabel("Provider configuration", { exact: true })).toBeVisible();
      expect(await sidewaysOverflow(page), `sideways overflow by ${await widestElements(page)}`).toBe(0);
      await page.screenshot({ path: `${dir}${theme}-${width}-sso-setup-off.png`, fullPage: true });
    });
  }
}
