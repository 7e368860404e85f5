import { endpoints, type IdentityMembership, SearchIdentitiesBodySchema } from "@keyhold/contract";
import type { z } from "zod";

type SearchBody = z.output<typeof SearchIdentitiesBodySchema>;
type Condition = { $eq?: string | undefined; $contains?: string | undefined; $in?: string[] | undefined };

const listResponse = endpoints["identities.list"].response;

/** Whether a value meets one search condition; a bare string means "contains" for names, "equals" for roles. */
function meets(value: string, condition: string | Condition | undefined, bare: "$contains" | "$eq"): boolean {
  if (condition === undefined) return true;
  const { $eq, $contains, $in }: Condition = typeof condition === "string" ? { [bare]: condition } : condition;
  const folded = value.toLowerCase();
  if ($eq !== undefined && value !== $eq) return false;
  if ($contains !== undefined && !folded.includes($contains.toLowerCase())) return false;
  if ($in !== undefined && !$in.includes(value)) return false;
  return true;
}

const roleOf = (m: IdentityMembership) => m.customRole?.slug ?? m.role;

/**
 * The answer to an identity search, worked out from the whole organisation's list (for servers
 * without the search route): the same filters, order and page the service applies.
 */
export function searchIdentityList(
  body: unknown,
  listAnswer: unknown,
): { identities: IdentityMembership[]; totalCount: number } {
  const search: SearchBody = SearchIdentitiesBodySchema.parse(body ?? {});
  const { identities } = listResponse.parse(listAnswer);
  const matching = identities.filter(
    (m) => meets(m.identity.name, search.search?.name, "$contains") && meets(roleOf(m), search.search?.role, "$eq"),
  );
  const key = search.orderBy === "role" ? roleOf : (m: IdentityMembership) => m.identity.name;
  const direction = search.orderDirection === "desc" ? -1 : 1;
  matching.sort((a, b) => direction * (key(a).localeCompare(key(b)) || a.identity.id.localeCompare(b.identity.id)));
  return { identities: matching.slice(search.offset, search.offset + search.limit), totalCount: matching.length };
}
