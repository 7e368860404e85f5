import { z } from "zod";
import {
  IdentityIdParams,
  NullableTimestamp,
  queryWholeNumber,
  ResourceName,
  Timestamp,
  Uuid,
  wholeNumber,
} from "./common.ts";
import { defineEndpoint } from "./endpoint.ts";
import { MembershipRoleSchema } from "./memberships.ts";

export const IdentityMetadataInputSchema = z.object({
  key: z.string().trim().min(1, "Key is required"),
  value: z.string().trim().min(1, "Value is required"),
});
export const IdentityMetadataSchema = z.object({ id: z.string(), key: z.string(), value: z.string() });

export const OrgRoleSlug = z
  .string()
  .trim()
  .min(1, "Role is required")
  .describe('"admin", "member", "no-access" or a custom org role slug');

/** The identity record itself (update, create and delete views). */
export const IdentitySchema = z.object({
  id: Uuid,
  name: z.string(),
  authMethod: z.string().nullable().optional(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  hasDeleteProtection: z.boolean(),
  orgId: Uuid.optional().describe("Servers before 2025 leave it out"),
  projectId: z.string().nullable().optional().describe("Set for project-scoped identities"),
  metadata: z.array(IdentityMetadataSchema).optional(),
});
export type Identity = z.infer<typeof IdentitySchema>;

export const CustomOrgRoleSchema = z.object({
  id: Uuid,
  name: z.string(),
  slug: z.string(),
  permissions: z.unknown(),
  description: z.string().nullable().optional(),
});

/** The identity record as create answers it: with its auth methods. */
export const CreatedIdentitySchema = IdentitySchema.extend({ authMethods: z.array(z.string()) });

/** The identity as nested in its membership (get and list views). */
export const IdentitySummarySchema = z.object({
  name: z.string(),
  id: Uuid,
  hasDeleteProtection: z.boolean(),
  authMethods: z.array(z.string()),
  orgId: Uuid.optional(),
  activeLockoutAuthMethods: z.array(z.string()).optional(),
});

/** The organisation membership of an identity, with the identity nested (get and list views). */
export const IdentityMembershipSchema = z.object({
  id: Uuid.describe("The membership id"),
  role: z.string(),
  roleId: Uuid.nullable().optional(),
  orgId: Uuid,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  identityId: Uuid,
  lastLoginAuthMethod: z.string().nullable().optional(),
  lastLoginTime: NullableTimestamp.optional(),
  metadata: z.array(IdentityMetadataSchema).optional(),
  customRole: CustomOrgRoleSchema.nullable().optional(),
  identity: IdentitySummarySchema,
});
export type IdentityMembership = z.infer<typeof IdentityMembershipSchema>;

export const CreateIdentityBodySchema = z.object({
  name: ResourceName,
  organizationId: z.string().trim().min(1),
  role: OrgRoleSlug.default("no-access"),
  hasDeleteProtection: z.boolean().default(false),
  metadata: z.array(IdentityMetadataInputSchema).optional(),
});

export const UpdateIdentityBodySchema = z.object({
  name: ResourceName.optional(),
  role: OrgRoleSlug.optional(),
  hasDeleteProtection: z.boolean().optional(),
  metadata: z.array(IdentityMetadataInputSchema).optional().describe("Replaces all metadata; [] clears it"),
});

const identityPermission = (action: string) => ({ scope: "org" as const, subject: "identity", action });

const SearchText = z
  .string()
  .trim()
  .max(255)
  .regex(/^[\w\s\-/]*$/, "Search text may contain letters, digits, spaces, _, - and / only");

export const SearchIdentitiesBodySchema = z.object({
  orderBy: z.enum(["name", "role"]).default("name"),
  orderDirection: z.enum(["asc", "desc"]).default("asc"),
  limit: wholeNumber(1, 100).default(50),
  offset: wholeNumber(0).default(0),
  search: z
    .object({
      name: z
        .union([
          SearchText,
          z.object({
            $eq: SearchText.optional(),
            $contains: SearchText.optional(),
            $in: z.array(SearchText).optional(),
          }),
        ])
        .optional(),
      role: z
        .union([SearchText, z.object({ $eq: SearchText.optional(), $in: z.array(SearchText).optional() })])
        .optional(),
    })
    .optional(),
});

/** The identity as nested in the organisation-wide listing (v2): slimmer than the v1 one. */
export const OrgListedIdentitySchema = z.object({
  name: z.string(),
  id: Uuid,
  orgId: Uuid.optional(),
  authMethods: z.array(z.string()),
});

/** A membership in the organisation-wide listing (v2). */
export const OrgIdentityMembershipSchema = IdentityMembershipSchema.extend({ identity: OrgListedIdentitySchema });

/** The projects an identity belongs to, with its roles there. */
export const IdentityProjectMembershipSchema = z.object({
  id: Uuid,
  identityId: Uuid,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  roles: z.array(MembershipRoleSchema),
  identity: IdentitySummarySchema,
  project: z.object({ name: z.string(), id: z.string(), type: z.string().optional() }),
});

export const identityEndpoints = [
  defineEndpoint({
    id: "identities.list",
    method: "GET",
    path: "/api/v1/identities",
    summary: "List the identities of an organisation",
    query: z.object({ orgId: z.string().trim().min(1) }),
    response: z.object({ identities: z.array(IdentityMembershipSchema), totalCount: z.number().int() }),
    permission: identityPermission("read"),
  }),
  defineEndpoint({
    id: "identities.search",
    method: "POST",
    path: "/api/v1/identities/search",
    summary: "Search the caller's organisation's identities, a page at a time",
    body: SearchIdentitiesBodySchema,
    response: z.object({ identities: z.array(IdentityMembershipSchema), totalCount: z.number().int() }),
    permission: identityPermission("read"),
  }),
  defineEndpoint({
    id: "identities.listOrgMemberships",
    method: "GET",
    path: "/api/v2/organizations/{orgId}/identity-memberships",
    summary: "List an organisation's identity memberships, a page at a time",
    params: z.object({ orgId: z.string().trim().min(1) }),
    query: z.object({
      offset: queryWholeNumber(0).default(0),
      limit: queryWholeNumber(1, 20_000).default(100),
      orderBy: z.enum(["name", "role"]).default("name"),
      orderDirection: z.enum(["asc", "desc"]).default("asc"),
      search: SearchText.optional(),
    }),
    response: z.object({ identityMemberships: z.array(OrgIdentityMembershipSchema), totalCount: z.number().int() }),
    permission: identityPermission("read"),
  }),
  defineEndpoint({
    id: "identities.listProjectMemberships",
    method: "GET",
    path: "/api/v1/identities/{identityId}/identity-memberships",
    summary: "List the projects an identity belongs to",
    params: IdentityIdParams,
    response: z.object({ identityMemberships: z.array(IdentityProjectMembershipSchema) }),
    permission: identityPermission("read"),
  }),
  defineEndpoint({
    id: "identities.create",
    method: "POST",
    path: "/api/v1/identities",
    summary: "Create an identity in an organisation",
    body: CreateIdentityBodySchema,
    response: z.object({ identity: CreatedIdentitySchema }),
    permission: identityPermission("create"),
  }),
  defineEndpoint({
    id: "identities.get",
    method: "GET",
    path: "/api/v1/identities/{identityId}",
    summary: "Read an identity's organisation membership",
    params: IdentityIdParams,
    response: z.object({ identity: IdentityMembershipSchema }),
    permission: identityPermission("read"),
  }),
  defineEndpoint({
    id: "identities.update",
    method: "PATCH",
    path: "/api/v1/identities/{identityId}",
    summary: "Update an identity's name, org role, delete protection or metadata",
    params: IdentityIdParams,
    body: UpdateIdentityBodySchema,
    response: z.object({ identity: IdentitySchema }),
    permission: identityPermission("edit"),
  }),
  defineEndpoint({
    id: "identities.delete",
    method: "DELETE",
    path: "/api/v1/identities/{identityId}",
    summary: "Delete an identity",
    params: IdentityIdParams,
    response: z.object({ identity: IdentitySchema }),
    permission: identityPermission("delete"),
  }),
] as const;
