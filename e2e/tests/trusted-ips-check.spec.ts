import { endpoints } from "@keyhold/contract";
import { csrf, expect, test } from "../support/fixtures.ts";
import { methodRow } from "../support/identities.ts";

/**
 * "Add my address" puts in the address the service sees for this browser (the BFF forwards it),
 * and "Would this address pass?" checks it against the lists as typed, before anything is saved.
 */
test("add my address, then the check says it passes and names the entry", async ({
  signedIn: page,
  seededIdentity,
  service,
  request,
}) => {
  const identityId = seededIdentity.identity.id;
  const { identityUniversalAuth: attached } = await service(endpoints["universalAuth.attach"], {
    params: { identityId },
    body: {
      accessTokenTrustedIps: [{ ipAddress: "10.0.0.0/8" }],
      clientSecretTrustedIps: [{ ipAddress: "10.0.0.0/8" }],
    },
  });
  const { clientSecret } = await service(endpoints["universalAuth.createClientSecret"], {
    params: { identityId },
    body: {},
  });
  // A sign-in from this machine through the console's server (its own cookie jar, not the page's).
  const signIn = () =>
    request.post("/bff/login", { headers: csrf, data: { clientId: attached.clientId, clientSecret } });
  expect((await signIn()).status()).toBe(403);
  // The browser reaches the console's server on loopback; that server forwards the same address.
  const mine = "127.0.0.1";

  await page.goto(`/identities/${identityId}`);
  await methodRow(page, "Universal auth").getByRole("button", { name: "Edit Universal auth" }).click();
  const dialog = page.getByRole("dialog", { name: "Edit Universal auth" });
  const check = dialog.getByRole("region", { name: "Would this address pass?" });
  await expect(check).toContainText(`The service sees you at${mine}`);
  await expect(check).toContainText("KEYHOLD_TRUSTED_PROXIES is not set");

  // As saved, neither list admits this browser.
  await check.getByRole("button", { name: "Check my address" }).click();
  const verdicts = check.getByRole("list", { name: `Verdicts for ${mine}` });
  await expect(verdicts.getByRole("listitem")).toHaveText([
    "Client secret trusted IPs: refused: no entry holds this address",
    "Access token trusted IPs: refused: no entry holds this address",
  ]);

  await dialog.getByRole("button", { name: "Add my address to Access token trusted IPs" }).click();
  await expect(dialog.getByLabel("Access token trusted IPs, row 2")).toHaveValue(mine);
  await expect(verdicts.getByRole("listitem")).toHaveText([
    "Client secret trusted IPs: refused: no entry holds this address",
    `Access token trusted IPs: passes, admitted by ${mine} (row 2)`,
  ]);
  await dialog.getByRole("button", { name: "Add my address to Client secret trusted IPs" }).click();
  await expect(verdicts.getByRole("listitem").first()).toHaveText(
    `Client secret trusted IPs: passes, admitted by ${mine} (row 2)`,
  );

  // Another address is checked the same way; a block is not an address.
  const address = check.getByLabel("Address to check against the lists above, as they would be saved");
  await address.fill("10.20.30.40");
  await expect(check.getByRole("list", { name: "Verdicts for 10.20.30.40" }).getByRole("listitem")).toHaveText([
    "Client secret trusted IPs: passes, admitted by 10.0.0.0/8 (row 1)",
    "Access token trusted IPs: passes, admitted by 10.0.0.0/8 (row 1)",
  ]);
  await address.fill("10.0.0.0/8");
  await expect(address).toHaveAccessibleDescription("Enter one address, not a block");

  // Saved, the service admits what the check said it would: the client secret signs in from here,
  // and the token it gives is accepted from here too.
  await dialog.getByRole("button", { name: "Save changes" }).click();
  await expect(dialog).toBeHidden();
  const { identityUniversalAuth } = await service(endpoints["universalAuth.get"], { params: { identityId } });
  expect(identityUniversalAuth.accessTokenTrustedIps.map((ip) => ip.ipAddress)).toEqual(["10.0.0.0", mine]);
  expect((await signIn()).status()).toBe(200);
});
