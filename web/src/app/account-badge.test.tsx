import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { session } from "@/testing/fixtures";
import { AccountBadge, accountOf } from "./account-badge";

describe("the header's account", () => {
  it("names the identity of a session signed in with credentials", () => {
    expect(accountOf(session)).toEqual({ name: "admin" });
  });

  it("names the person of a single sign-on session first, with the identity they act as", () => {
    const sso = {
      ...session,
      identity: { ...session.identity, name: "platform-people" },
      person: { subject: "u-123", email: "eve@acme.test", name: "Eve Example", provider: "Acme ID" },
    };
    const account = accountOf(sso);
    expect(account).toEqual({ name: "eve@acme.test", identityName: "platform-people" });
    render(<AccountBadge {...account} />);
    expect(screen.getByText("eve@acme.test")).toBeVisible();
    expect(screen.getByText("as platform-people")).toBeInTheDocument();
  });

  it("falls back to the person's name, then their subject, when the provider gave no e-mail", () => {
    const person = { subject: "u-123", provider: "Acme ID" };
    expect(accountOf({ ...session, person: { ...person, name: "Eve" } }).name).toBe("Eve");
    expect(accountOf({ ...session, person }).name).toBe("u-123");
  });
});
