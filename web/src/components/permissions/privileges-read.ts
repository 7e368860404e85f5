import type { IdentityPrivilege, PermissionRule } from "@keyhold/contract";
import { isMissingRoute } from "@/lib/api-error";

/** An identity's additional privileges as a preview counts them, or why they are not counted. */
export interface PrivilegesRead {
  privileges: IdentityPrivilege[];
  /** The server has no route to read them: a preview counts the identity's roles only, and says so. */
  rolesOnly: boolean;
}

type Listed = Omit<IdentityPrivilege, "permissions"> & { permissions?: PermissionRule[] | undefined };

/**
 * An identity's privileges with their rules: the list, and each privilege it lists without its
 * rules read one by one (a list that carries them needs no more). A server with no privilege
 * list at all leaves them uncounted; any other failure is the caller's error.
 */
export async function readPrivileges(
  list: () => Promise<Listed[]>,
  read: (id: string) => Promise<IdentityPrivilege>,
): Promise<PrivilegesRead> {
  let listed: Listed[];
  try {
    listed = await list();
  } catch (error) {
    if (isMissingRoute(error)) return { privileges: [], rolesOnly: true };
    throw error;
  }
  const privileges = await Promise.all(
    listed.map(({ permissions, ...privilege }) =>
      permissions === undefined ? read(privilege.id) : Promise.resolve({ ...privilege, permissions }),
    ),
  );
  return { privileges, rolesOnly: false };
}
