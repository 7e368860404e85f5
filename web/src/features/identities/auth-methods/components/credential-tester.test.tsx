import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, within } from "@testing-library/react";
import { useForm } from "react-hook-form";
import { describe, expect, it } from "vitest";
import { sessionKeys } from "@/lib/session";
import { session } from "@/testing/fixtures";
import { oidcAuth } from "../descriptors";
import { type AuthMethodFormValues, toFormValues } from "../form";
import { CredentialTester } from "./credential-tester";

const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const jwt = (claims: Record<string, unknown>) => `${part({ alg: "RS256" })}.${part(claims)}.c2ln`;

function Harness({ values }: { values: Partial<AuthMethodFormValues> }) {
  const form = useForm<AuthMethodFormValues>({ defaultValues: { ...toFormValues(oidcAuth), ...values } });
  const tester = oidcAuth.tester;
  if (!tester) throw new Error("OIDC auth declares a tester");
  return (
    <>
      <textarea aria-label="Required claims" {...form.register("boundClaims")} />
      <CredentialTester form={form} descriptor={oidcAuth} tester={tester} identityId="id-1" />
    </>
  );
}

function show(values: Partial<AuthMethodFormValues>) {
  const queryClient = new QueryClient();
  queryClient.setQueryData(sessionKeys.current(), session);
  render(
    <QueryClientProvider client={queryClient}>
      <Harness values={values} />
    </QueryClientProvider>,
  );
}

const token = jwt({
  iss: "https://ci.example",
  sub: "repo:acme/api",
  exp: Math.floor(Date.now() / 1000) + 3600,
  repository: "acme/api",
  ref: "refs/heads/dev",
});

describe("the credential tester", () => {
  it("marks the first failing rule with the login's words, and follows the form's unsaved values", () => {
    show({ boundIssuer: "https://ci.example", boundClaims: "repository=acme/*\nref=refs/heads/main" });
    fireEvent.change(screen.getByLabelText("JWT"), { target: { value: token } });

    expect(screen.getByRole("status")).toHaveTextContent("Would be refused: Claim ref is one of refs/heads/main");
    const rules = within(screen.getByRole("list", { name: "Rules, checked in your browser" })).getAllByRole("listitem");
    const failing = rules.filter((rule) => within(rule).queryByText("Fails"));
    expect(failing).toHaveLength(1);
    expect(failing[0]).toHaveTextContent("The sign-in would answer 401: Access denied: OIDC claim not allowed.");
    expect(rules.find((rule) => rule.textContent?.includes("Claim repository"))).toHaveTextContent("Passes");

    fireEvent.change(screen.getByLabelText("Required claims"), {
      target: { value: "repository=acme/*\nref=refs/heads/*" },
    });
    expect(screen.getByRole("status")).toHaveTextContent("Would be accepted (signature not checked)");
  });

  it("says when a paste is not a JWT, and applies no rule to it", () => {
    show({ boundIssuer: "https://ci.example" });
    fireEvent.change(screen.getByLabelText("JWT"), { target: { value: "hello" } });
    expect(screen.getByRole("alert")).toHaveTextContent("This is not a JWT");
    expect(screen.queryByRole("list", { name: "Rules, checked in your browser" })).toBeNull();
  });
});
