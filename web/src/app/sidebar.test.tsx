import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderRoutes } from "@/testing/render";
import { SidebarNav } from "./sidebar";

const routes = [{ path: "/projects/:projectId/*", element: <SidebarNav idPrefix="test" /> }];

function link(name: string) {
  return within(screen.getByRole("navigation", { name: "Main" })).getByRole("link", { name });
}

describe("SidebarNav", () => {
  it("keeps the environment and folder open now on the pages that show a folder, and only there", () => {
    renderRoutes(routes, { path: "/projects/p1/secrets?env=prod&path=%2Fshared&secret=DB_URL&q=db" });
    expect(link("Secret imports")).toHaveAttribute("href", "/projects/p1/secret-imports?env=prod&path=%2Fshared");
    expect(link("Secrets")).toHaveAttribute("href", "/projects/p1/secrets?env=prod&path=%2Fshared");
    expect(link("Secrets overview")).toHaveAttribute("href", "/projects/p1/overview?env=prod&path=%2Fshared");
    expect(link("Roles")).toHaveAttribute("href", "/projects/p1/roles");
  });

  it("carries an environment named the older way, under the one name", () => {
    renderRoutes(routes, { path: "/projects/p1/secret-imports?environment=dev" });
    expect(link("Secrets")).toHaveAttribute("href", "/projects/p1/secrets?env=dev");
  });

  it("links to the pages plainly where no place is open", () => {
    renderRoutes(routes, { path: "/projects/p1/access?identity=i1" });
    expect(link("Secrets")).toHaveAttribute("href", "/projects/p1/secrets");
  });
});
