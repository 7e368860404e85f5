import type { ReactNode } from "react";
import type { Params } from "react-router";

export interface Crumb {
  label: ReactNode;
  to: string;
}

/** What a route declares in `handle`; the top bar reads it to build breadcrumbs. */
export interface RouteHandle {
  crumb?: (params: Params) => Crumb;
}

export function isRouteHandle(value: unknown): value is RouteHandle {
  return typeof value === "object" && value !== null && "crumb" in value;
}
