import { zodResolver } from "@hookform/resolvers/zod";
import { screen, within } from "@testing-library/react";
import { useForm } from "react-hook-form";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { json, mockFetch } from "@/testing/fetch-mock";
import { IDENTITY_ID, membership, ORG_ID } from "@/testing/fixtures";
import { renderRoutes } from "@/testing/render";
import { IdentityFormSchema, type IdentityFormInput, type IdentityFormValues, toFormValues } from "../identity-form";
import { IdentityFormFields } from "./identity-form-fields";

interface HarnessProps {
  onValid: (values: IdentityFormValues) => void;
  initial?: IdentityFormInput | undefined;
  identityId?: string | undefined;
}

function Harness({ onValid, initial, identityId }: HarnessProps) {
  const form = useForm<IdentityFormInput, unknown, IdentityFormValues>({
    resolver: zodResolver(IdentityFormSchema),
    defaultValues: initial ?? toFormValues(),
  });
  return (
    <form noValidate onSubmit={form.handleSubmit(onValid)}>
      <IdentityFormFields form={form} idPrefix="test" identityId={identityId} />
      <button type="submit">Submit</button>
    </form>
  );
}

/** The organisation's identities, as the name check reads them. */
let organisation: { id: string; name: string }[] = [];

beforeEach(() => {
  organisation = [];
  mockFetch((request) => {
    const url = new URL(request.url, "http://console");
    if (url.pathname !== `/api/v2/organizations/${ORG_ID}/identity-memberships`) return json(404, {});
    const search = (url.searchParams.get("search") ?? "").toLowerCase();
    const found = organisation.filter((identity) => identity.name.toLowerCase().includes(search));
    return json(200, {
      identityMemberships: found.map((identity) =>
        membership({ identityId: identity.id, identity: { ...identity, hasDeleteProtection: false, authMethods: [] } }),
      ),
      totalCount: found.length,
    });
  });
});
afterEach(() => vi.unstubAllGlobals());

function setup(initial?: IdentityFormInput, identityId?: string) {
  const onValid = vi.fn();
  const { user } = renderRoutes([
    { path: "/", element: <Harness onValid={onValid} initial={initial} identityId={identityId} /> },
  ]);
  return { onValid, user, submit: () => user.click(screen.getByRole("button", { name: "Submit" })) };
}

describe("IdentityFormFields", () => {
  it("labels every control", () => {
    setup();
    expect(screen.getByRole("textbox", { name: "Name" })).toBeInTheDocument();
    expect(screen.getByRole("combobox", { name: "Organization role" })).toHaveDisplayValue("No access");
    expect(screen.getByRole("switch", { name: "Delete protection" })).not.toBeChecked();
    expect(screen.getByRole("button", { name: "Add metadata" })).toBeInTheDocument();
  });

  it("shows the contract's message when the name is missing and does not submit", async () => {
    const { onValid, submit } = setup();
    await submit();
    const name = screen.getByRole("textbox", { name: "Name" });
    expect(await screen.findByText("Name is required")).toBeInTheDocument();
    expect(name).toHaveAttribute("aria-invalid", "true");
    expect(name).toHaveAccessibleDescription("Name is required");
    expect(onValid).not.toHaveBeenCalled();
  });

  it("adds metadata rows, validates them, and submits them with the rest", async () => {
    const { onValid, user, submit } = setup();
    await user.type(screen.getByRole("textbox", { name: "Name" }), "ci-deployer");
    await user.click(screen.getByRole("switch", { name: "Delete protection" }));
    await user.click(screen.getByRole("button", { name: "Add metadata" }));
    await submit();
    expect(await screen.findByText("Key is required")).toBeInTheDocument();
    expect(screen.getByText("Value is required")).toBeInTheDocument();
    expect(onValid).not.toHaveBeenCalled();

    await user.type(screen.getByRole("textbox", { name: "Key" }), "team");
    await user.type(screen.getByRole("textbox", { name: "Value" }), "platform");
    await submit();
    expect(onValid).toHaveBeenCalledTimes(1);
    expect(onValid.mock.calls[0]?.[0]).toEqual({
      name: "ci-deployer",
      role: "no-access",
      hasDeleteProtection: true,
      metadata: [{ key: "team", value: "platform" }],
    });
  });

  it("submits the role chosen in the native select, described by its help text", async () => {
    const { onValid, user, submit } = setup({ ...toFormValues(), name: "ci" });
    const role = screen.getByRole("combobox", { name: "Organization role" });
    expect(role).toHaveAccessibleDescription("Can sign in, but sees nothing until granted access.");
    await user.selectOptions(role, "Member");
    expect(role).toHaveAccessibleDescription("Reads and works with the organization's resources.");
    // Nothing is injected into the page: the console's CSP refuses <style> elements made at runtime.
    expect(document.querySelector("style")).toBeNull();
    await submit();
    expect(onValid.mock.calls[0]?.[0].role).toBe("member");
  });

  it("removes the chosen metadata row", async () => {
    const { onValid, user, submit } = setup(
      toFormValues(
        membership({
          metadata: [
            { id: "1", key: "team", value: "platform" },
            { id: "2", key: "env", value: "prod" },
          ],
        }),
      ),
    );
    expect(screen.getAllByRole("textbox", { name: "Key" })).toHaveLength(2);
    await user.click(screen.getByRole("button", { name: "Remove metadata row 1" }));
    const keys = screen.getAllByRole("textbox", { name: "Key" });
    expect(keys).toHaveLength(1);
    expect(keys[0]).toHaveValue("env");
    await submit();
    expect(onValid.mock.calls[0]?.[0].metadata).toEqual([{ key: "env", value: "prod" }]);
  });

  it("warns when another identity already has the name typed, and still submits it", async () => {
    organisation = [
      { id: "5e2f9c1a-0000-4000-8000-000000000001", name: "ci-deployer" },
      { id: "7a1b2c3d-0000-4000-8000-000000000002", name: "ci-deployer-2" },
    ];
    const { onValid, user, submit } = setup();
    await user.type(screen.getByRole("textbox", { name: "Name" }), "CI-Deployer");
    expect(await screen.findByText("Another identity is already called ci-deployer")).toBeInTheDocument();
    expect(screen.getByText(/id 5e2f9c1a/)).toBeInTheDocument();
    await submit();
    expect(onValid.mock.calls[0]?.[0].name).toBe("CI-Deployer");

    await user.type(screen.getByRole("textbox", { name: "Name" }), "-x");
    await vi.waitFor(() => expect(screen.queryByText(/already called/)).not.toBeInTheDocument());
  });

  it("warns on a rename only, never about the identity itself", async () => {
    organisation = [
      { id: IDENTITY_ID, name: "ci-deployer" },
      { id: "5e2f9c1a-0000-4000-8000-000000000001", name: "web" },
      { id: "6f3a0d2b-0000-4000-8000-000000000003", name: "web" },
    ];
    const { user } = setup(toFormValues(membership()), IDENTITY_ID);
    const name = screen.getByRole("textbox", { name: "Name" });
    await user.clear(name);
    await user.type(name, "ci-deployer");
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(screen.queryByText(/already called/)).not.toBeInTheDocument();

    await user.clear(name);
    await user.type(name, "web");
    expect(await screen.findByText("2 other identities are already called web")).toBeInTheDocument();
    expect(screen.getByText(/id 5e2f9c1a, id 6f3a0d2b/)).toBeInTheDocument();
  });

  it("flags a duplicate key on the row that repeats it", async () => {
    const { user, submit } = setup({ ...toFormValues(), name: "ci" });
    await user.click(screen.getByRole("button", { name: "Add metadata" }));
    await user.click(screen.getByRole("button", { name: "Add metadata" }));
    const [firstKey, secondKey] = screen.getAllByRole("textbox", { name: "Key" });
    const [firstValue, secondValue] = screen.getAllByRole("textbox", { name: "Value" });
    if (!firstKey || !secondKey || !firstValue || !secondValue) throw new Error("expected two rows");
    await user.type(firstKey, "team");
    await user.type(firstValue, "a");
    await user.type(secondKey, "team");
    await user.type(secondValue, "b");
    await submit();
    const rows = screen.getAllByRole("listitem");
    expect(await within(rows[1] as HTMLElement).findByText("Each key can be used once")).toBeInTheDocument();
    expect(within(rows[0] as HTMLElement).queryByText("Each key can be used once")).not.toBeInTheDocument();
  });
});
