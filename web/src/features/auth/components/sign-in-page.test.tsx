import type { SignInOptions } from "@keyhold/contract";
import type { QueryClient } from "@tanstack/react-query";
import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { errorBody, json, mockFetch, type RecordedRequest } from "@/testing/fetch-mock";
import { session } from "@/testing/fixtures";
import { renderRoutes } from "@/testing/render";
import { signInLoader } from "../routes";
import { SignInError } from "./sign-in-error";
import { SignInPage } from "./sign-in-page";

afterEach(() => vi.unstubAllGlobals());

const routes = (queryClient: QueryClient) => [
  {
    path: "/sign-in",
    element: <SignInPage />,
    loader: signInLoader(queryClient),
    errorElement: <SignInError />,
    HydrateFallback: () => <p>Loading</p>,
  },
  { path: "/identities", element: <h1>Identities page</h1> },
  { path: "/identities/:id", element: <h1>Identity page</h1> },
];

const credentialsOnly: SignInOptions = { credentials: true, sso: null };
const withSso: SignInOptions = { credentials: true, sso: { providerName: "Acme ID", loginPath: "/bff/oidc/login" } };

/** The BFF: sign-in options as given, and `login` for POST /bff/login. */
function bff(options: SignInOptions | Response, login: () => Response = () => json(200, session)) {
  return mockFetch((request: RecordedRequest) => {
    if (request.url === "/bff/sign-in-options") return options instanceof Response ? options : json(200, options);
    if (request.url === "/bff/login" && request.method === "POST") return login();
    return json(404, errorBody(404, "NotFound", `unexpected ${request.method} ${request.url}`));
  });
}

async function signIn(path: string, token = "tok-secret-value") {
  const rendered = renderRoutes(routes, { path, signedIn: false });
  const input = await screen.findByLabelText("Access token");
  await rendered.user.type(input, token);
  await rendered.user.click(screen.getByRole("button", { name: "Sign in" }));
  return { ...rendered, input };
}

describe("SignInPage with credentials", () => {
  it("posts the token to the BFF, clears the field and returns to the requested page", async () => {
    const { requests } = bff(credentialsOnly);
    const { router } = await signIn("/sign-in?next=%2Fidentities%2Fabc");

    expect(await screen.findByRole("heading", { name: "Identity page" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/identities/abc");
    const login = requests.find((r) => r.url === "/bff/login");
    expect(login?.headers.get("x-csrf")).toBe("1");
    expect(JSON.parse(login?.body ?? "null")).toEqual({ accessToken: "tok-secret-value" });
    expect(router.state.location.search).not.toContain("tok-secret-value");
  });

  it("ignores a return path that leaves the site", async () => {
    bff(credentialsOnly);
    const { router } = await signIn("/sign-in?next=https%3A%2F%2Fevil.example%2F");
    expect(await screen.findByRole("heading", { name: "Identities page" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/identities");
  });

  it("explains a rejected token and empties the field", async () => {
    bff(credentialsOnly, () => json(401, errorBody(401, "UnauthorizedError", "Invalid token")));
    const { input } = await signIn("/sign-in");
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("That access token was not accepted.");
    expect(input).toHaveValue("");
    // A refusal that names no field sits at the top of the form, above its fields.
    expect(alert.compareDocumentPosition(screen.getByRole("radio", { name: "Token" }))).toBe(
      Node.DOCUMENT_POSITION_FOLLOWING,
    );
  });

  it("asks to wait after too many attempts", async () => {
    bff(credentialsOnly, () => json(429, errorBody(429, "RateLimitExceeded", "Rate limit exceeded")));
    await signIn("/sign-in");
    expect(await screen.findByRole("alert")).toHaveTextContent("Too many sign-in attempts.");
  });

  it("requires a token before sending anything", async () => {
    const { requests } = bff(credentialsOnly);
    const { user } = renderRoutes(routes, { path: "/sign-in", signedIn: false });
    await user.click(await screen.findByRole("button", { name: "Sign in" }));
    expect(await screen.findByText("Paste an access token")).toBeInTheDocument();
    expect(requests.map((r) => r.url)).toEqual(["/bff/sign-in-options"]);
  });

  it("reveals and hides the token on request", async () => {
    bff(credentialsOnly);
    const { user } = renderRoutes(routes, { path: "/sign-in", signedIn: false });
    const input = await screen.findByLabelText("Access token");
    expect(input).toHaveAttribute("type", "password");
    await user.click(screen.getByRole("button", { name: "Show token" }));
    expect(input).toHaveAttribute("type", "text");
    await user.click(screen.getByRole("button", { name: "Hide token" }));
    expect(input).toHaveAttribute("type", "password");
  });

  it("signs in with a client ID and secret", async () => {
    const { requests } = bff(credentialsOnly);
    const { user, router } = renderRoutes(routes, { path: "/sign-in", signedIn: false });
    await user.click(await screen.findByRole("radio", { name: "Universal auth" }));
    await user.type(screen.getByLabelText("Client ID"), "client-1");
    await user.type(screen.getByLabelText("Client secret"), "secret-value");
    await user.click(screen.getByRole("button", { name: "Sign in" }));

    expect(await screen.findByRole("heading", { name: "Identities page" })).toBeInTheDocument();
    const login = requests.find((r) => r.url === "/bff/login");
    expect(JSON.parse(login?.body ?? "null")).toEqual({ clientId: "client-1", clientSecret: "secret-value" });
    expect(router.state.location.search).not.toContain("secret-value");
  });

  it("requires both the client ID and the secret", async () => {
    const { requests } = bff(credentialsOnly);
    const { user } = renderRoutes(routes, { path: "/sign-in", signedIn: false });
    await user.click(await screen.findByRole("radio", { name: "Universal auth" }));
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect(await screen.findByText("Client ID is required")).toBeInTheDocument();
    expect(screen.getByText("Client secret is required")).toBeInTheDocument();
    expect(screen.getByLabelText("Client ID")).toHaveFocus();
    await user.type(screen.getByLabelText("Client ID"), "client-1");
    expect(screen.queryByText("Client ID is required")).not.toBeInTheDocument();
    expect(screen.getByText("Client secret is required")).toBeInTheDocument();
    expect(requests.some((r) => r.url === "/bff/login")).toBe(false);
  });

  it("explains rejected client credentials and empties the fields", async () => {
    bff(credentialsOnly, () => json(401, errorBody(401, "UnauthorizedError", "Invalid credentials")));
    const { user } = renderRoutes(routes, { path: "/sign-in", signedIn: false });
    await user.click(await screen.findByRole("radio", { name: "Universal auth" }));
    await user.type(screen.getByLabelText("Client ID"), "client-1");
    await user.type(screen.getByLabelText("Client secret"), "secret-value");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("That client ID and secret were not accepted.");
    expect(screen.getByLabelText("Client secret")).toHaveValue("");
  });

  it("offers the credentials forms only, when the BFF predates single sign-on", async () => {
    bff(json(404, errorBody(404, "NotFound", "Route GET:/bff/sign-in-options not found")));
    renderRoutes(routes, { path: "/sign-in", signedIn: false });
    expect(await screen.findByLabelText("Access token")).toBeVisible();
    expect(screen.queryByRole("link", { name: /^Sign in with/ })).toBeNull();
  });
});

describe("SignInPage with single sign-on", () => {
  it("offers the provider above the credentials, returning to the requested page", async () => {
    bff(withSso);
    renderRoutes(routes, { path: "/sign-in?next=%2Fidentities%2Fabc%3Fq%3D1", signedIn: false });
    const link = await screen.findByRole("link", { name: "Sign in with Acme ID" });
    expect(link).toHaveAttribute("href", "/bff/oidc/login?returnTo=%2Fidentities%2Fabc%3Fq%3D1");
    expect(link.compareDocumentPosition(screen.getByLabelText("Access token"))).toBe(Node.DOCUMENT_POSITION_FOLLOWING);
    // One main action: the provider's.
    expect(screen.getByRole("button", { name: "Sign in" })).not.toHaveClass("bg-accent");
    expect(screen.getByText("Use your Acme ID account, or the credentials of a machine identity.")).toBeVisible();
  });

  it("never sends the browser off the site after signing in", async () => {
    bff(withSso);
    renderRoutes(routes, { path: "/sign-in?next=%2F%2Fevil.example%2Fx", signedIn: false });
    const link = await screen.findByRole("link", { name: "Sign in with Acme ID" });
    expect(link).toHaveAttribute("href", "/bff/oidc/login?returnTo=%2Fidentities");
  });

  it("shows only the provider when the operator switched the credentials off", async () => {
    bff({ ...withSso, credentials: false });
    renderRoutes(routes, { path: "/sign-in", signedIn: false });
    expect(await screen.findByRole("link", { name: "Sign in with Acme ID" })).toBeVisible();
    expect(screen.queryByLabelText("Access token")).toBeNull();
    expect(screen.queryByRole("button", { name: "Sign in" })).toBeNull();
    expect(screen.queryByText(/admin token/)).toBeNull();
  });

  it("tells why the last single sign-on failed, as the BFF says it", async () => {
    const failure =
      'Acme ID signed you in as eve@acme.test, but the secrets service refused the identity of rule "platform": OIDC claim not allowed.';
    bff({ ...withSso, failure });
    renderRoutes(routes, { path: "/sign-in?sso=failed", signedIn: false });
    expect(await screen.findByRole("alert")).toHaveTextContent(failure);
  });

  it("puts no words of the address on the page: a bare failure flag gets a general sentence", async () => {
    bff(withSso);
    renderRoutes(routes, { path: "/sign-in?sso=failed&message=Call%20evil", signedIn: false });
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Single sign-on did not complete.");
    expect(alert).not.toHaveTextContent("Call evil");
  });

  it("says what failed when the sign-in options cannot be read", async () => {
    bff(json(502, errorBody(502, "BadGateway", "The secrets service did not answer")));
    renderRoutes(routes, { path: "/sign-in", signedIn: false });
    expect(await screen.findByRole("alert")).toHaveTextContent("The secrets service did not answer");
  });
});
