import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { json, mockFetch } from "@/testing/fetch-mock";
import { renderRoutes } from "@/testing/render";
import { CreateClientSecretDialog } from "./create-client-secret-dialog";

afterEach(() => vi.unstubAllGlobals());

function renderDialog() {
  return renderRoutes([
    { path: "/", element: <CreateClientSecretDialog identityId="identity-1" open onOpenChange={() => {}} /> },
  ]);
}

describe("CreateClientSecretDialog", () => {
  it("refuses a uses limit and a TTL past the contract's ranges as they are typed, and sends nothing", async () => {
    const { requests } = mockFetch(() => json(200, {}));
    const { user } = renderDialog();

    const uses = await screen.findByLabelText("Uses limit");
    await user.clear(uses);
    await user.type(uses, "2147483648");
    expect(await screen.findByText("At most 2147483647")).toBeInTheDocument();

    const ttl = screen.getByLabelText("TTL");
    await user.clear(ttl);
    await user.type(ttl, "4000d");
    expect(await screen.findByText(/^At most 3650 days/)).toBeInTheDocument();
    expect(screen.queryByText(/expires/)).not.toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Create secret" }));
    expect(requests.filter((r) => r.method === "POST")).toEqual([]);
  });

  it("sends values inside the ranges", async () => {
    const { requests } = mockFetch(() => json(500, {}));
    const { user } = renderDialog();

    const uses = await screen.findByLabelText("Uses limit");
    await user.clear(uses);
    await user.type(uses, "5");
    await user.click(screen.getByRole("button", { name: "Create secret" }));

    await vi.waitFor(() => expect(requests.filter((r) => r.method === "POST")).toHaveLength(1));
    expect(JSON.parse(requests.find((r) => r.method === "POST")?.body ?? "{}")).toMatchObject({
      numUsesLimit: 5,
      ttl: 0,
    });
  });
});
