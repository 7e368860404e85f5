import type {
  AccessTokenRecord,
  ClientSecretRecord,
  IdentityPrivilege,
  MembershipRole,
  ProjectIdentityMembership,
  ProjectMembership,
} from "@keyhold/contract";
import { clientSecretState, tokenState } from "@/lib/credential-status";

/**
 * Everything that ends, as one list: token-auth tokens (by TTL or max TTL), universal-auth client
 * secrets with a TTL, temporary project roles and temporary additional privileges.
 */
export type EndingKind = "token" | "client-secret" | "identity-role" | "user-role" | "privilege";

/** What a row can do in place; user roles have no update endpoint, so they are shown only. */
export type EndingAction =
  | { type: "revoke-token"; tokenId: string }
  | { type: "revoke-client-secret"; identityId: string; clientSecretId: string }
  | { type: "extend-privilege"; privilegeId: string; slug: string; start: string }
  | {
      type: "extend-identity-role";
      projectId: string;
      identityId: string;
      roleId: string;
      roles: MembershipRole[];
      start: string;
    }
  | { type: "none" };

export interface Ending {
  /** Stable across reloads and servers: the kind and the record's id (the calendar UID builds on it). */
  key: string;
  kind: EndingKind;
  /** What ends: a token's name, a client secret's description, a role or privilege slug. */
  name: string;
  /** Who holds it. */
  holder: { kind: "identity" | "user"; id: string; name: string };
  project?: { id: string; name: string } | undefined;
  /** ISO time at which it stops working. */
  endsAt: string;
  /** "max-ttl" when a token ends at its max TTL before its TTL would end it. */
  cause: "ttl" | "max-ttl" | "temporary";
  action: EndingAction;
}

export interface Holder {
  id: string;
  name: string;
}

export const kindLabels: Record<EndingKind, string> = {
  token: "Access token",
  "client-secret": "Client secret",
  "identity-role": "Temporary role",
  "user-role": "Temporary role",
  privilege: "Temporary privilege",
};

/** Token-auth tokens that end by time; revoked and used-up ones no longer work, so they are left out. */
export function tokenEndings(identity: Holder, tokens: AccessTokenRecord[]): Ending[] {
  return tokens.flatMap((token) => {
    const state = tokenState(token, new Date(0));
    if (token.isAccessTokenRevoked || state.status === "used-up" || !state.expiresAt) return [];
    const renewed = Date.parse(token.accessTokenLastRenewedAt ?? token.createdAt);
    const byTtl = token.accessTokenTTL > 0 ? renewed + token.accessTokenTTL * 1000 : Number.POSITIVE_INFINITY;
    return [
      {
        key: `token-${token.id}`,
        kind: "token",
        name: token.name || "Unnamed token",
        holder: { kind: "identity", ...identity },
        endsAt: state.expiresAt.toISOString(),
        cause: state.expiresAt.getTime() < byTtl ? "max-ttl" : "ttl",
        action: { type: "revoke-token", tokenId: token.id },
      },
    ];
  });
}

/** Client secrets with a TTL (the list holds only secrets that are not revoked). */
export function clientSecretEndings(identity: Holder, secrets: ClientSecretRecord[]): Ending[] {
  return secrets.flatMap((secret) => {
    const state = clientSecretState(secret, new Date(0));
    if (secret.isClientSecretRevoked || state.status === "used-up" || !state.expiresAt) return [];
    const label = secret.description.trim() || "Client secret";
    return [
      {
        key: `client-secret-${secret.id}`,
        kind: "client-secret",
        name: `${label} (${secret.clientSecretPrefix}…)`,
        holder: { kind: "identity", ...identity },
        endsAt: state.expiresAt.toISOString(),
        cause: "ttl",
        action: { type: "revoke-client-secret", identityId: identity.id, clientSecretId: secret.id },
      },
    ];
  });
}

function roleName(role: MembershipRole): string {
  return role.role === "custom" ? (role.customRoleName ?? role.customRoleSlug ?? "Custom role") : role.role;
}

/** The slug to send back for a role when the roles are replaced. */
export function roleSlug(role: MembershipRole): string {
  return role.role === "custom" ? (role.customRoleSlug ?? role.role) : role.role;
}

function temporaryEnd(grant: { isTemporary: boolean; temporaryAccessEndTime?: string | null | undefined }) {
  if (!grant.isTemporary || !grant.temporaryAccessEndTime) return undefined;
  return Number.isFinite(Date.parse(grant.temporaryAccessEndTime)) ? grant.temporaryAccessEndTime : undefined;
}

export function identityRoleEndings(project: Holder, memberships: ProjectIdentityMembership[]): Ending[] {
  return memberships.flatMap((membership) =>
    membership.roles.flatMap((role): Ending[] => {
      const end = temporaryEnd(role);
      if (!end) return [];
      return [
        {
          key: `identity-role-${role.id}`,
          kind: "identity-role",
          name: roleName(role),
          holder: { kind: "identity", id: membership.identity.id, name: membership.identity.name },
          project,
          endsAt: new Date(end).toISOString(),
          cause: "temporary",
          action: {
            type: "extend-identity-role",
            projectId: project.id,
            identityId: membership.identity.id,
            roleId: role.id,
            roles: membership.roles,
            start: role.temporaryAccessStartTime ?? end,
          },
        },
      ];
    }),
  );
}

export function userRoleEndings(project: Holder, memberships: ProjectMembership[]): Ending[] {
  return memberships.flatMap((membership) =>
    membership.roles.flatMap((role): Ending[] => {
      const end = temporaryEnd(role);
      if (!end) return [];
      const { user } = membership;
      const name = [user.firstName, user.lastName].filter(Boolean).join(" ") || user.email || user.username;
      return [
        {
          key: `user-role-${role.id}`,
          kind: "user-role",
          name: roleName(role),
          holder: { kind: "user", id: user.id, name },
          project,
          endsAt: new Date(end).toISOString(),
          cause: "temporary",
          action: { type: "none" },
        },
      ];
    }),
  );
}

type PrivilegeSummary = Omit<IdentityPrivilege, "permissions">;

export function privilegeEndings(project: Holder, identity: Holder, privileges: PrivilegeSummary[]): Ending[] {
  return privileges.flatMap((privilege): Ending[] => {
    const end = temporaryEnd(privilege);
    if (!end) return [];
    return [
      {
        key: `privilege-${privilege.id}`,
        kind: "privilege",
        name: privilege.slug,
        holder: { kind: "identity", ...identity },
        project,
        endsAt: new Date(end).toISOString(),
        cause: "temporary",
        action: {
          type: "extend-privilege",
          privilegeId: privilege.id,
          slug: privilege.slug,
          start: privilege.temporaryAccessStartTime ?? end,
        },
      },
    ];
  });
}

/** Soonest first; equal ends keep a stable order by key. */
export function byEnd(a: Ending, b: Ending): number {
  return Date.parse(a.endsAt) - Date.parse(b.endsAt) || a.key.localeCompare(b.key);
}
