import type { ClientSecretRecord } from "@keyhold/contract";
import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { errorBody, json, mockFetch } from "@/testing/fetch-mock";
import { IDENTITY_ID } from "@/testing/fixtures";
import { renderRoutes } from "@/testing/render";
import { ClientSecretsTable } from "./client-secrets-table";

afterEach(() => vi.unstubAllGlobals());

const routes = [{ path: "/", element: <ClientSecretsTable identityId={IDENTITY_ID} /> }];
const secret: ClientSecretRecord = {
  id: "6f1c1a8e-0000-4000-8000-000000000003",
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  description: "ci runner",
  clientSecretPrefix: "ab12",
  clientSecretNumUses: 3,
  clientSecretNumUsesLimit: 10,
  clientSecretTTL: 0,
  identityUAId: "6f1c1a8e-0000-4000-8000-000000000004",
  isClientSecretRevoked: false,
};

describe("ClientSecretsTable", () => {
  it("lists secrets by prefix with uses against the limit", async () => {
    mockFetch(() => json(200, { clientSecretData: [secret] }));
    renderRoutes(routes);
    const row = (await screen.findByText("ci runner")).closest("tr") as HTMLElement;
    expect(within(row).getByText("ab12…")).toBeInTheDocument();
    expect(within(row).getByText("3 / 10")).toBeInTheDocument();
    expect(within(row).getByText("Never")).toBeInTheDocument();
    expect(within(row).getByText("Active")).toBeInTheDocument();
  });

  it("says when there are none", async () => {
    mockFetch(() => json(200, { clientSecretData: [] }));
    renderRoutes(routes);
    expect(await screen.findByText(/No client secrets\./)).toBeInTheDocument();
  });

  it("says what failed and retries", async () => {
    let calls = 0;
    mockFetch(() => {
      calls += 1;
      return calls === 1
        ? json(403, errorBody(403, "PermissionDenied", "You are not allowed to read identities"))
        : json(200, { clientSecretData: [secret] });
    });
    const { user } = renderRoutes(routes);
    expect(await screen.findByRole("alert")).toHaveTextContent("not allowed");
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByText("ci runner")).toBeInTheDocument();
  });

  it("creates a secret with the TTL in seconds and shows it once", async () => {
    const { requests } = mockFetch((request) =>
      request.method === "POST"
        ? json(200, { clientSecret: "the-new-secret", clientSecretData: secret })
        : json(200, { clientSecretData: [] }),
    );
    const { user } = renderRoutes(routes);
    await user.click(await screen.findByRole("button", { name: "Create client secret" }));
    const dialog = await screen.findByRole("dialog", { name: "Create client secret" });
    await user.type(within(dialog).getByLabelText("Description (optional)"), "deploy");
    await user.clear(within(dialog).getByLabelText("TTL"));
    await user.type(within(dialog).getByLabelText("TTL"), "12h");
    await user.clear(within(dialog).getByLabelText("Uses limit"));
    await user.type(within(dialog).getByLabelText("Uses limit"), "5");
    await user.click(within(dialog).getByRole("button", { name: "Create secret" }));

    const shown = await screen.findByRole("dialog", { name: "Client secret created" });
    expect(within(shown).getByLabelText("New client secret")).toHaveTextContent("the-new-secret");
    expect(shown).toHaveTextContent("It will not be shown again");
    const post = requests.find((request) => request.method === "POST");
    expect(JSON.parse(post?.body ?? "null")).toEqual({ description: "deploy", ttl: 43_200, numUsesLimit: 5 });
  });

  it("refuses a TTL it cannot read before sending anything", async () => {
    const { requests } = mockFetch(() => json(200, { clientSecretData: [] }));
    const { user } = renderRoutes(routes);
    await user.click(await screen.findByRole("button", { name: "Create client secret" }));
    const dialog = await screen.findByRole("dialog", { name: "Create client secret" });
    await user.clear(within(dialog).getByLabelText("TTL"));
    await user.type(within(dialog).getByLabelText("TTL"), "soon");
    await user.click(within(dialog).getByRole("button", { name: "Create secret" }));
    expect(await within(dialog).findByText(/Use units like 30d/)).toBeInTheDocument();
    expect(requests.filter((request) => request.method === "POST")).toEqual([]);
  });
});
