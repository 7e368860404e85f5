import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, within } from "@testing-library/react";
import { useForm } from "react-hook-form";
import { afterEach, describe, expect, it, vi } from "vitest";
import { sessionKeys } from "@/lib/session";
import { errorBody, json, mockFetch } from "@/testing/fetch-mock";
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

function show(values: Partial<AuthMethodFormValues>, features = session.server.features) {
  const queryClient = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  queryClient.setQueryData(sessionKeys.current(), { ...session, server: { features } });
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

describe("the dry run", () => {
  afterEach(() => vi.unstubAllGlobals());
  const dryRunButton = () => screen.getByRole("button", { name: "Try a real sign-in (dry run)" });

  it("sends nothing while decoding, then the form's unsaved settings and the token, and shows that no token was issued", async () => {
    const { requests } = mockFetch(() =>
      json(200, {
        dryRun: {
          accepted: false,
          peer: { ok: true, message: "Signature verified with key acme-1" },
          checks: [
            {
              rule: "claim:ref",
              label: "Claim ref is one of refs/heads/main",
              outcome: "fail",
              detail: 'The token\'s ref is "refs/heads/dev"',
              refusal: { statusCode: 401, message: "Access denied: OIDC claim not allowed." },
            },
          ],
          refusal: { statusCode: 401, message: "Access denied: OIDC claim not allowed." },
        },
      }),
    );
    show({
      oidcDiscoveryUrl: "https://ci.example",
      boundIssuer: "https://ci.example",
      boundClaims: "ref=refs/heads/main",
    });
    fireEvent.change(screen.getByLabelText("JWT"), { target: { value: token } });
    expect(screen.getByRole("list", { name: "Rules, checked in your browser" })).toBeVisible();
    expect(requests).toHaveLength(0);

    fireEvent.click(dryRunButton());
    const answer = await screen.findByRole("group", { name: "Dry run answer" });
    expect(answer).toHaveTextContent("The service would refuse this sign-in. No token was issued.");
    expect(answer).toHaveTextContent("Signature verified with key acme-1");
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      "POST /api/v1/auth/oidc-auth/identities/id-1/dry-run-login",
    ]);
    expect(JSON.parse(requests[0]?.body ?? "")).toEqual({
      jwt: token,
      settings: {
        oidcDiscoveryUrl: "https://ci.example",
        boundIssuer: "https://ci.example",
        boundAudiences: "",
        boundSubject: "",
        caCert: "",
        boundClaims: { ref: "refs/heads/main" },
        claimMetadataMapping: {},
      },
    });

    // A change to the settings puts the answer away: it was for what was sent.
    fireEvent.change(screen.getByLabelText("Required claims"), { target: { value: "ref=refs/heads/*" } });
    expect(screen.queryByRole("group", { name: "Dry run answer" })).toBeNull();
  });

  it("says the server cannot dry-run a sign-in when it has no such route, and keeps the browser's check", async () => {
    mockFetch(() =>
      json(
        404,
        errorBody(404, "NotFound", "Route POST:/api/v1/auth/oidc-auth/identities/id-1/dry-run-login not found"),
      ),
    );
    show({ boundIssuer: "https://ci.example" });
    fireEvent.change(screen.getByLabelText("JWT"), { target: { value: token } });
    fireEvent.click(dryRunButton());
    expect(await screen.findByText(/This server cannot dry-run a sign-in/)).toBeVisible();
    expect(screen.getByRole("list", { name: "Rules, checked in your browser" })).toBeVisible();
  });

  it("offers no dry run where the session knows the server lacks it", () => {
    show({ boundIssuer: "https://ci.example" }, [
      { name: "dryRunLogin", available: false, reason: "This server cannot dry-run a sign-in." },
    ]);
    expect(screen.getByRole("note")).toHaveTextContent("This server cannot dry-run a sign-in.");
    expect(screen.queryByRole("button", { name: "Try a real sign-in (dry run)" })).toBeNull();
  });
});
