import type { AccessTokenRecord } from "@keyhold/contract";
import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { json, mockFetch } from "@/testing/fetch-mock";
import { IDENTITY_ID } from "@/testing/fixtures";
import { renderRoutes } from "@/testing/render";
import { TokensTable } from "./tokens-table";

afterEach(() => vi.unstubAllGlobals());

const routes = [{ path: "/", element: <TokensTable identityId={IDENTITY_ID} /> }];
const TOKEN_ID = "6f1c1a8e-0000-4000-8000-000000000001";
const token: AccessTokenRecord = {
  id: TOKEN_ID,
  identityId: IDENTITY_ID,
  name: "deploy-bot",
  authMethod: "token-auth",
  accessTokenTTL: 0,
  accessTokenMaxTTL: 0,
  accessTokenNumUses: 2,
  accessTokenNumUsesLimit: 2,
  accessTokenPeriod: 0,
  accessTokenLastUsedAt: "2026-01-02T00:00:00.000Z",
  accessTokenLastRenewedAt: null,
  isAccessTokenRevoked: false,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  subOrganizationId: null,
};

describe("TokensTable", () => {
  it("shows a used-up token and renames it", async () => {
    let name = "deploy-bot";
    const { requests } = mockFetch((request) => {
      if (request.method === "PATCH") {
        name = JSON.parse(request.body ?? "{}").name;
        return json(200, { token: { ...token, name } });
      }
      return json(200, { tokens: [{ ...token, name }] });
    });
    const { user } = renderRoutes(routes);
    const row = (await screen.findByText("deploy-bot")).closest("tr") as HTMLElement;
    expect(within(row).getByText("2 / 2")).toBeInTheDocument();
    expect(within(row).getByText("Used up")).toBeInTheDocument();

    await user.click(within(row).getByRole("button", { name: "Rename deploy-bot" }));
    const dialog = await screen.findByRole("dialog", { name: "Rename access token" });
    await user.clear(within(dialog).getByLabelText("Name"));
    await user.type(within(dialog).getByLabelText("Name"), "release-bot");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));

    expect(await screen.findByText("release-bot")).toBeInTheDocument();
    const patch = requests.find((request) => request.method === "PATCH");
    expect(patch?.url).toBe(`/api/v1/auth/token-auth/tokens/${TOKEN_ID}`);
  });

  it("revokes only after confirming", async () => {
    let revoked = false;
    const { requests } = mockFetch((request) => {
      if (request.method === "POST") {
        revoked = true;
        return json(200, { message: "Successfully revoked access token" });
      }
      return json(200, { tokens: [{ ...token, isAccessTokenRevoked: revoked }] });
    });
    const { user } = renderRoutes(routes);
    await user.click(await screen.findByRole("button", { name: "Revoke deploy-bot" }));
    const confirm = await screen.findByRole("alertdialog", { name: "Revoke deploy-bot?" });
    expect(requests.filter((request) => request.method === "POST")).toEqual([]);
    await user.click(within(confirm).getByRole("button", { name: "Revoke token" }));

    expect(await screen.findByText("Revoked")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Revoke deploy-bot" })).not.toBeInTheDocument();
  });
});
