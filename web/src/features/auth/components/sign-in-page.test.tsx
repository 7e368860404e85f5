import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { errorBody, json, mockFetch } from "@/testing/fetch-mock";
import { session } from "@/testing/fixtures";
import { renderRoutes } from "@/testing/render";
import { SignInPage } from "./sign-in-page";

afterEach(() => vi.unstubAllGlobals());

const routes = [
  { path: "/sign-in", element: <SignInPage /> },
  { path: "/identities", element: <h1>Identities page</h1> },
  { path: "/identities/:id", element: <h1>Identity page</h1> },
];

async function signIn(path: string, token = "tok-secret-value") {
  const rendered = renderRoutes(routes, { path, signedIn: false });
  const input = screen.getByLabelText("Access token");
  await rendered.user.type(input, token);
  await rendered.user.click(screen.getByRole("button", { name: "Sign in" }));
  return { ...rendered, input };
}

describe("SignInPage", () => {
  it("posts the token to the BFF, clears the field and returns to the requested page", async () => {
    const { requests } = mockFetch(() => json(200, session));
    const { router } = await signIn("/sign-in?next=%2Fidentities%2Fabc");

    expect(await screen.findByRole("heading", { name: "Identity page" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/identities/abc");
    expect(requests[0]?.url).toBe("/bff/login");
    expect(requests[0]?.headers.get("x-csrf")).toBe("1");
    expect(JSON.parse(requests[0]?.body ?? "null")).toEqual({ accessToken: "tok-secret-value" });
    expect(router.state.location.search).not.toContain("tok-secret-value");
  });

  it("ignores a return path that leaves the site", async () => {
    mockFetch(() => json(200, session));
    const { router } = await signIn("/sign-in?next=https%3A%2F%2Fevil.example%2F");
    expect(await screen.findByRole("heading", { name: "Identities page" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/identities");
  });

  it("explains a rejected token and empties the field", async () => {
    mockFetch(() => json(401, errorBody(401, "UnauthorizedError", "Invalid token")));
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
    mockFetch(() => json(429, errorBody(429, "RateLimitExceeded", "Rate limit exceeded")));
    await signIn("/sign-in");
    expect(await screen.findByRole("alert")).toHaveTextContent("Too many sign-in attempts.");
  });

  it("requires a token before sending anything", async () => {
    const { fetchMock } = mockFetch(() => json(200, session));
    const { user } = renderRoutes(routes, { path: "/sign-in", signedIn: false });
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect(await screen.findByText("Paste an access token")).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("reveals and hides the token on request", async () => {
    mockFetch(() => json(200, session));
    const { user } = renderRoutes(routes, { path: "/sign-in", signedIn: false });
    const input = screen.getByLabelText("Access token");
    expect(input).toHaveAttribute("type", "password");
    await user.click(screen.getByRole("button", { name: "Show token" }));
    expect(input).toHaveAttribute("type", "text");
    await user.click(screen.getByRole("button", { name: "Hide token" }));
    expect(input).toHaveAttribute("type", "password");
  });

  it("signs in with a client ID and secret", async () => {
    const { requests } = mockFetch(() => json(200, session));
    const { user, router } = renderRoutes(routes, { path: "/sign-in", signedIn: false });
    await user.click(screen.getByRole("radio", { name: "Universal auth" }));
    await user.type(screen.getByLabelText("Client ID"), "client-1");
    await user.type(screen.getByLabelText("Client secret"), "secret-value");
    await user.click(screen.getByRole("button", { name: "Sign in" }));

    expect(await screen.findByRole("heading", { name: "Identities page" })).toBeInTheDocument();
    expect(JSON.parse(requests[0]?.body ?? "null")).toEqual({ clientId: "client-1", clientSecret: "secret-value" });
    expect(router.state.location.search).not.toContain("secret-value");
  });

  it("requires both the client ID and the secret", async () => {
    const { fetchMock } = mockFetch(() => json(200, session));
    const { user } = renderRoutes(routes, { path: "/sign-in", signedIn: false });
    await user.click(screen.getByRole("radio", { name: "Universal auth" }));
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect(await screen.findByText("Client ID is required")).toBeInTheDocument();
    expect(screen.getByText("Client secret is required")).toBeInTheDocument();
    expect(screen.getByLabelText("Client ID")).toHaveFocus();
    await user.type(screen.getByLabelText("Client ID"), "client-1");
    expect(screen.queryByText("Client ID is required")).not.toBeInTheDocument();
    expect(screen.getByText("Client secret is required")).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("explains rejected client credentials and empties the fields", async () => {
    mockFetch(() => json(401, errorBody(401, "UnauthorizedError", "Invalid credentials")));
    const { user } = renderRoutes(routes, { path: "/sign-in", signedIn: false });
    await user.click(screen.getByRole("radio", { name: "Universal auth" }));
    await user.type(screen.getByLabelText("Client ID"), "client-1");
    await user.type(screen.getByLabelText("Client secret"), "secret-value");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("That client ID and secret were not accepted.");
    expect(screen.getByLabelText("Client secret")).toHaveValue("");
  });
});
