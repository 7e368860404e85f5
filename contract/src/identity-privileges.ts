import { z } from "zod";
import { NullableTimestamp, slugSchema, Timestamp, Uuid } from "./common.ts";
import { defineEndpoint } from "./endpoint.ts";
import { PermissionRuleInputSchema, PermissionRuleSchema, refineRuleSubject } from "./permissions.ts";

export const IdentityPrivilegeSchema = z.object({
  id: Uuid,
  slug: z.string(),
  projectMembershipId: Uuid.optional(),
  identityId: Uuid.optional(),
  projectId: z.string().optional(),
  isTemporary: z.boolean(),
  temporaryMode: z.string().nullable().optional(),
  temporaryRange: z.string().nullable().optional(),
  temporaryAccessStartTime: NullableTimestamp.optional(),
  temporaryAccessEndTime: NullableTimestamp.optional(),
  permissions: z.array(PermissionRuleSchema),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type IdentityPrivilege = z.infer<typeof IdentityPrivilegeSchema>;

const PrivilegeSlug = slugSchema(1, 60);

/** Permanent, or temporary for a range ("1h", "7d") counted from a start time. */
export const PrivilegeTypeSchema = z.discriminatedUnion("isTemporary", [
  z.object({ isTemporary: z.literal(false) }),
  z.object({
    isTemporary: z.literal(true),
    temporaryMode: z.literal("relative"),
    temporaryRange: z.string().trim().min(1).describe('A duration such as "30m", "1h" or "7d"'),
    temporaryAccessStartTime: z.iso.datetime(),
  }),
]);

const SecretPathGlob = z.object({ $glob: z.string().min(1) });

/** The v1 rule shape: secrets only, conditions on environment and path. */
const V1PermissionSchema = z
  .object({
    action: z.string(),
    subject: z.string(),
    conditions: z.object({ environment: z.string().optional(), secretPath: SecretPathGlob.optional() }).optional(),
  })
  .superRefine(refineRuleSubject);

export const PrivilegePermissionSchema = z.object({
  actions: z.array(z.string()).min(1),
  subject: z.literal("secrets"),
  conditions: z.object({ environment: z.string().trim().min(1), secretPath: SecretPathGlob.optional() }),
});

const V1Permissions = {
  permissions: z.array(V1PermissionSchema).optional().describe("Deprecated: rules in the v1 shape"),
  privilegePermission: PrivilegePermissionSchema.optional(),
};
const needsPermissions = {
  message: "Give permissions or privilegePermission",
  path: ["privilegePermission"],
};
const V1Target = {
  identityId: z.string().trim().min(1),
  projectSlug: z.string().trim().min(1),
};
const TemporaryFields = {
  temporaryMode: z.literal("relative"),
  temporaryRange: z.string().trim().min(1).describe('A duration such as "30m", "1h" or "7d"'),
  temporaryAccessStartTime: z.iso.datetime(),
};

/**
 * v2 lists leave the rules out; the v1 list of older servers, which answers in their place,
 * carries them, and a reader then needs no read per privilege.
 */
export const IdentityPrivilegeSummarySchema = IdentityPrivilegeSchema.extend({
  permissions: z.array(PermissionRuleSchema).optional(),
});

const response = z.object({ privilege: IdentityPrivilegeSchema });
const listResponse = z.object({ privileges: z.array(IdentityPrivilegeSchema) });
const PrivilegeIdParams = z.object({ id: Uuid.describe("The privilege") });
const permission = (action: string) => ({ scope: "project" as const, subject: "identity", action });

export const identityPrivilegeEndpoints = [
  defineEndpoint({
    id: "identityPrivileges.createPermanentV1",
    method: "POST",
    path: "/api/v1/additional-privilege/identity/permanent",
    summary: "Grant an identity a permanent additional privilege in a project (by project slug)",
    body: z
      .object({ ...V1Target, slug: PrivilegeSlug.optional(), ...V1Permissions })
      .refine((b) => b.permissions || b.privilegePermission, needsPermissions),
    response,
    permission: permission("edit"),
  }),
  defineEndpoint({
    id: "identityPrivileges.createTemporaryV1",
    method: "POST",
    path: "/api/v1/additional-privilege/identity/temporary",
    summary: "Grant an identity a temporary additional privilege in a project (by project slug)",
    body: z
      .object({ ...V1Target, slug: PrivilegeSlug.optional(), ...V1Permissions, ...TemporaryFields })
      .refine((b) => b.permissions || b.privilegePermission, needsPermissions),
    response,
    permission: permission("edit"),
  }),
  defineEndpoint({
    id: "identityPrivileges.updateV1",
    method: "PATCH",
    path: "/api/v1/additional-privilege/identity",
    summary: "Update an identity's additional privilege (by slugs)",
    body: z.object({
      privilegeSlug: z.string().trim().min(1),
      ...V1Target,
      privilegeDetails: z.object({
        slug: PrivilegeSlug.optional(),
        ...V1Permissions,
        isTemporary: z.boolean().optional(),
        temporaryMode: TemporaryFields.temporaryMode.optional(),
        temporaryRange: TemporaryFields.temporaryRange.optional(),
        temporaryAccessStartTime: TemporaryFields.temporaryAccessStartTime.optional(),
      }),
    }),
    response,
    permission: permission("edit"),
  }),
  defineEndpoint({
    id: "identityPrivileges.deleteV1",
    method: "DELETE",
    path: "/api/v1/additional-privilege/identity",
    summary: "Remove an identity's additional privilege (by slugs)",
    body: z.object({ privilegeSlug: z.string().trim().min(1), ...V1Target }),
    response,
    permission: permission("edit"),
  }),
  defineEndpoint({
    id: "identityPrivileges.listV1",
    method: "GET",
    path: "/api/v1/additional-privilege/identity",
    summary: "List an identity's additional privileges in a project (by project slug)",
    query: z.object({ ...V1Target, unpacked: z.string().optional().describe("Ignored: rules are always unpacked") }),
    response: listResponse,
    permission: permission("read"),
  }),
  defineEndpoint({
    id: "identityPrivileges.getBySlugV1",
    method: "GET",
    path: "/api/v1/additional-privilege/identity/{privilegeSlug}",
    summary: "Read an identity's additional privilege by its slug (by project slug)",
    params: z.object({ privilegeSlug: z.string().trim().min(1) }),
    query: z.object(V1Target),
    response,
    permission: permission("read"),
  }),
  defineEndpoint({
    id: "identityPrivileges.create",
    method: "POST",
    path: "/api/v2/identity-project-additional-privilege",
    summary: "Grant an identity an additional privilege in a project",
    body: z.object({
      identityId: z.string().trim().min(1),
      projectId: z.string().trim().min(1),
      slug: PrivilegeSlug.optional(),
      permissions: z.array(PermissionRuleInputSchema),
      type: PrivilegeTypeSchema.default({ isTemporary: false }),
    }),
    response,
    permission: permission("edit"),
  }),
  defineEndpoint({
    id: "identityPrivileges.update",
    method: "PATCH",
    path: "/api/v2/identity-project-additional-privilege/{id}",
    summary: "Update an identity's additional privilege",
    params: PrivilegeIdParams,
    body: z.object({
      slug: PrivilegeSlug,
      permissions: z.array(PermissionRuleInputSchema).optional(),
      type: PrivilegeTypeSchema,
    }),
    response,
    permission: permission("edit"),
  }),
  defineEndpoint({
    id: "identityPrivileges.get",
    method: "GET",
    path: "/api/v2/identity-project-additional-privilege/{id}",
    summary: "Read an identity's additional privilege",
    params: PrivilegeIdParams,
    response,
    permission: permission("read"),
  }),
  defineEndpoint({
    id: "identityPrivileges.delete",
    method: "DELETE",
    path: "/api/v2/identity-project-additional-privilege/{id}",
    summary: "Remove an identity's additional privilege",
    params: PrivilegeIdParams,
    response,
    permission: permission("edit"),
  }),
  defineEndpoint({
    id: "identityPrivileges.list",
    method: "GET",
    path: "/api/v2/identity-project-additional-privilege",
    summary: "List an identity's additional privileges in a project (without their rules)",
    query: z.object({ identityId: z.string().trim().min(1), projectId: z.string().trim().min(1) }),
    response: z.object({ privileges: z.array(IdentityPrivilegeSummarySchema) }),
    permission: permission("read"),
  }),
  defineEndpoint({
    id: "identityPrivileges.getBySlug",
    method: "GET",
    path: "/api/v2/identity-project-additional-privilege/slug/{privilegeSlug}",
    summary: "Read an identity's additional privilege by its slug (by project slug)",
    params: z.object({ privilegeSlug: z.string().trim().min(1) }),
    query: z.object(V1Target),
    response,
    permission: permission("read"),
  }),
] as const;
