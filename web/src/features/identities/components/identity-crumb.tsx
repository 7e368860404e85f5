import { useQuery } from "@tanstack/react-query";
import { identityQueries } from "../queries";

/** The identity's current name in the breadcrumbs; it follows renames because it reads the cache. */
export function IdentityCrumb({ identityId }: { identityId: string }) {
  // A failed load is already on screen in the page; the crumb must not fetch it again.
  const { data } = useQuery({ ...identityQueries.detail(identityId), retryOnMount: false });
  return <>{data?.identity.name ?? "Identity"}</>;
}
