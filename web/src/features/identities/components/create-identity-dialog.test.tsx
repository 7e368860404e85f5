import { screen, waitFor, within } from "@testing-library/react";
import { useParams } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { errorBody, json, mockFetch } from "@/testing/fetch-mock";
import { IDENTITY_ID, ORG_ID } from "@/testing/fixtures";
import { renderRoutes } from "@/testing/render";
import { CreateIdentityDialog } from "./create-identity-dialog";

afterEach(() => vi.unstubAllGlobals());

function DetailStub() {
  const { identityId } = useParams();
  return <h1>Detail of {identityId}</h1>;
}

const routes = [
  { path: "/identities", element: <CreateIdentityDialog /> },
  { path: "/identities/:identityId", element: <DetailStub /> },
];

const created = {
  identity: {
    id: IDENTITY_ID,
    name: "ci-deployer",
    authMethod: null,
    authMethods: [],
    createdAt: "2026-01-02T03:04:05.000Z",
    updatedAt: "2026-01-02T03:04:05.000Z",
    hasDeleteProtection: false,
    metadata: [],
  },
};

async function openAndFill() {
  const rendered = renderRoutes(routes, { path: "/identities" });
  await rendered.user.click(screen.getByRole("button", { name: "Create identity" }));
  const dialog = await screen.findByRole("dialog", { name: "Create identity" });
  // The form loads with the dialog, and its first field takes focus.
  const name = await within(dialog).findByRole("textbox", { name: "Name" });
  await waitFor(() => expect(name).toHaveFocus());
  await rendered.user.type(name, "ci-deployer");
  return { ...rendered, dialog };
}

describe("CreateIdentityDialog", () => {
  it("creates the identity in the session's organization and opens its page", async () => {
    const { requests } = mockFetch(() => json(200, created));
    const { user, dialog, router } = await openAndFill();
    await user.click(within(dialog).getByRole("button", { name: "Create identity" }));

    expect(await screen.findByRole("heading", { name: `Detail of ${IDENTITY_ID}` })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/identities/${IDENTITY_ID}`);
    expect(requests).toHaveLength(1);
    expect(JSON.parse(requests[0]?.body ?? "null")).toEqual({
      name: "ci-deployer",
      role: "no-access",
      hasDeleteProtection: false,
      metadata: [],
      organizationId: ORG_ID,
    });
  });

  it("puts the server's 422 issues on the matching fields and stays open", async () => {
    mockFetch(() =>
      json(
        422,
        errorBody(422, "ValidationFailure", [
          { code: "custom", path: ["name"], message: "An identity with this name already exists" },
        ]),
      ),
    );
    const { user, dialog } = await openAndFill();
    await user.click(within(dialog).getByRole("button", { name: "Create identity" }));

    const name = within(dialog).getByRole("textbox", { name: "Name" });
    expect(await within(dialog).findByText("An identity with this name already exists")).toBeInTheDocument();
    expect(name).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByRole("dialog", { name: "Create identity" })).toBeInTheDocument();
  });

  it("names the missing permission when the server answers 403", async () => {
    mockFetch(() => json(403, errorBody(403, "PermissionDenied", "You are not allowed to create on identity")));
    const { user, dialog } = await openAndFill();
    await user.click(within(dialog).getByRole("button", { name: "Create identity" }));

    const alert = await within(dialog).findByRole("alert");
    expect(alert).toHaveTextContent("You don't have permission.");
    expect(alert).toHaveTextContent("Missing permission: create on identity (organization permission).");
  });
});
