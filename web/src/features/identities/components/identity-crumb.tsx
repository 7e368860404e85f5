import { useQuery } from "@tanstack/react-query";
import { identityQueries } from "../queries";

/** The identity's current name in the breadcrumbs; it follows renames because it reads the cache. */
export function IdentityCrumb({ identityId }: { identityId: string }) {
  const { data } = useQuery(identityQueries.detail(identityId));
  return <>{data?.identity.name ?? "Identity"}</>;
}
