import { useCallback } from "react";
import { useSearchParams } from "react-router";
import { readSecretLocation, writeSecretLocation } from "../secret-location";
import type { OverviewFilter } from "./overview-rows";

/** The overview's place, as its URL says: `?path=/app&q=db&show=missing`. Values never appear here. */
export interface OverviewLocation {
  secretPath: string;
  search: string;
  filter: OverviewFilter;
}

const FILTERS: readonly OverviewFilter[] = ["all", "missing", "differ"];

export function readOverviewLocation(params: URLSearchParams): OverviewLocation {
  const { secretPath, search } = readSecretLocation(params);
  const show = params.get("show");
  return { secretPath, search, filter: FILTERS.find((filter) => filter === show) ?? "all" };
}

export function writeOverviewLocation(params: URLSearchParams, patch: Partial<OverviewLocation>): URLSearchParams {
  const next = writeSecretLocation(params, {
    ...("secretPath" in patch ? { secretPath: patch.secretPath } : {}),
    ...("search" in patch ? { search: patch.search } : {}),
  });
  if ("filter" in patch) {
    if (!patch.filter || patch.filter === "all") next.delete("show");
    else next.set("show", patch.filter);
  }
  return next;
}

export function useOverviewLocation() {
  const [params, setParams] = useSearchParams();
  const location = readOverviewLocation(params);
  const update = useCallback(
    (patch: Partial<OverviewLocation>, options?: { replace?: boolean }) =>
      setParams((current) => writeOverviewLocation(current, patch), options),
    [setParams],
  );
  /** The href of another folder, without the search or filter. */
  const folderHref = (secretPath: string) => `?${writeOverviewLocation(new URLSearchParams(), { secretPath })}`;
  return { location, update, folderHref };
}
