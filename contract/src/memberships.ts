import { z } from "zod";
import { MAX_WHOLE_NUMBER, NullableTimestamp, queryInteger, Timestamp, Uuid } from "./common.ts";
import { defineEndpoint } from "./endpoint.ts";
import { WorkspaceIdParams } from "./projects.ts";

/** A role of a membership as every membership listing shows it (custom roles with their slug and name). */
export const MembershipRoleSchema = z.object({
  id: z.string(),
  role: z.string().describe('A predefined role slug, or "custom" with customRoleId set'),
  customRoleId: z.string().nullable().optional(),
  customRoleName: z.string().nullable().optional(),
  customRoleSlug: z.string().nullable().optional(),
  isTemporary: z.boolean(),
  temporaryMode: z.string().nullable().optional(),
  temporaryRange: z.string().nullable().optional(),
  temporaryAccessStartTime: NullableTimestamp.optional(),
  temporaryAccessEndTime: NullableTimestamp.optional(),
});
export type MembershipRole = z.infer<typeof MembershipRoleSchema>;

/** A stored role row, as an identity membership update answers it (custom roles by id only). */
export const MembershipRoleRowSchema = z.object({
  id: z.string(),
  role: z.string(),
  projectMembershipId: z.string(),
  customRoleId: z.string().nullable().optional(),
  isTemporary: z.boolean(),
  temporaryMode: z.string().nullable().optional(),
  temporaryRange: z.string().nullable().optional(),
  temporaryAccessStartTime: NullableTimestamp.optional(),
  temporaryAccessEndTime: NullableTimestamp.optional(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type MembershipRoleRow = z.infer<typeof MembershipRoleRowSchema>;

export const TEMPORARY_ROLE_NEEDS_START_AND_RANGE = "Temporary mode expects start time and range";

/**
 * A role to grant: permanent, or temporary for a range ("1h", "7d") counted from a start time
 * (end = start + range). One object with a refinement rather than Infisical's union, so that a
 * temporary role without its range or start is refused with a reason on the missing field.
 */
export const MembershipRoleInputSchema = z
  .object({
    role: z.string().trim().min(1, "Role is required").describe("A predefined role slug or a custom role's slug"),
    isTemporary: z.boolean().default(false),
    temporaryMode: z.literal("relative").optional(),
    temporaryRange: z.string().trim().min(1).optional().describe('A duration such as "30m", "1h" or "7d"'),
    temporaryAccessStartTime: z.iso.datetime({ offset: true }).optional(),
  })
  .superRefine((value, ctx) => {
    if (!value.isTemporary) return;
    for (const field of ["temporaryRange", "temporaryAccessStartTime"] as const) {
      if (value[field] === undefined) {
        ctx.addIssue({ code: "custom", message: TEMPORARY_ROLE_NEEDS_START_AND_RANGE, path: [field] });
      }
    }
  });
export type MembershipRoleInput = z.input<typeof MembershipRoleInputSchema>;

// ---- user memberships ----

export const ProjectMemberUserSchema = z.object({
  email: z.string().nullable().optional(),
  firstName: z.string().nullable().optional(),
  lastName: z.string().nullable().optional(),
  username: z.string(),
  publicKey: z.string().nullable().optional(),
  id: Uuid,
});

export const ProjectMembershipSchema = z.object({
  id: Uuid,
  createdAt: Timestamp.optional().describe("Servers before 2025 leave it out"),
  userId: Uuid,
  projectId: z.string(),
  user: ProjectMemberUserSchema,
  roles: z.array(MembershipRoleSchema),
});
export type ProjectMembership = z.infer<typeof ProjectMembershipSchema>;

/** The bare membership record an invitation answers with. */
export const ProjectUserMembershipRecordSchema = z.object({
  id: Uuid,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  userId: Uuid,
  projectId: z.string(),
});

export const InviteProjectUsersBodySchema = z
  .object({
    emails: z.array(z.email("Not an e-mail address").trim().toLowerCase()).default([]),
    usernames: z.array(z.string().trim().min(1)).default([]),
    roleSlugs: z
      .array(z.string().trim().min(1))
      .min(1)
      .optional()
      .describe('The roles to give; "member" when left out'),
    sendEmails: z.boolean().optional().describe("Accepted for compatibility; this service sends no e-mail"),
  })
  .refine((b) => b.emails.length + b.usernames.length > 0, {
    message: "Give at least one e-mail address or username",
    path: ["emails"],
  });

// ---- identity memberships ----

/** The identity as nested in a project's identity memberships. */
export const ProjectMemberIdentitySchema = z.object({
  name: z.string(),
  id: Uuid,
  authMethods: z.array(z.string()),
});

export const ProjectIdentityMembershipSchema = z.object({
  id: Uuid,
  identityId: Uuid,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  roles: z.array(MembershipRoleSchema),
  identity: ProjectMemberIdentitySchema,
  project: z.object({ name: z.string(), id: z.string() }),
});
export type ProjectIdentityMembership = z.infer<typeof ProjectIdentityMembershipSchema>;

/** The bare membership record that add and remove answer with. */
export const IdentityMembershipRecordSchema = z.object({
  id: Uuid,
  projectId: z.string(),
  identityId: Uuid,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const AddIdentityMembershipBodySchema = z.object({
  role: z.string().trim().min(1).optional().describe('Deprecated single role; "no-access" when neither is given'),
  roles: z.array(MembershipRoleInputSchema).min(1, "Give at least one role").optional(),
});

export const UpdateIdentityMembershipBodySchema = z.object({
  roles: z.array(MembershipRoleInputSchema).min(1, "Give at least one role").describe("Replaces every role"),
});

const ProjectIdParams = z.object({ projectId: z.string().trim().min(1).describe("The project id") });
const ProjectIdentityParams = ProjectIdParams.extend({ identityId: Uuid.describe("The identity") });

const SearchText = z.string().trim().max(255);

const identityPermission = (action: string) => ({ scope: "project" as const, subject: "identity", action });

export const membershipEndpoints = [
  defineEndpoint({
    id: "projects.listMemberships",
    method: "GET",
    path: "/api/v1/workspace/{workspaceId}/memberships",
    summary: "List a project's user memberships with their roles",
    params: WorkspaceIdParams,
    response: z.object({ memberships: z.array(ProjectMembershipSchema) }),
    permission: { scope: "project", subject: "member", action: "read" },
  }),
  defineEndpoint({
    id: "projectUsers.invite",
    method: "POST",
    path: "/api/v2/workspace/{projectId}/memberships",
    summary: "Add users to a project by e-mail or username, with the given roles",
    params: ProjectIdParams,
    body: InviteProjectUsersBodySchema,
    response: z.object({ memberships: z.array(ProjectUserMembershipRecordSchema) }),
    permission: { scope: "project", subject: "member", action: "create" },
  }),
  defineEndpoint({
    id: "identityMemberships.add",
    method: "POST",
    path: "/api/v2/workspace/{projectId}/identity-memberships/{identityId}",
    summary: "Add an identity of the organisation to a project, with one or more roles",
    params: ProjectIdentityParams,
    body: AddIdentityMembershipBodySchema,
    response: z.object({ identityMembership: IdentityMembershipRecordSchema }),
    permission: identityPermission("create"),
  }),
  defineEndpoint({
    id: "identityMemberships.list",
    method: "GET",
    path: "/api/v2/workspace/{projectId}/identity-memberships",
    summary: "List a project's identity memberships with their roles, a page at a time",
    params: ProjectIdParams,
    query: z.object({
      offset: queryInteger(0, MAX_WHOLE_NUMBER, 0),
      limit: queryInteger(1, 20_000, 100),
      orderBy: z.enum(["name"]).default("name"),
      orderDirection: z.enum(["asc", "desc"]).default("asc"),
      search: SearchText.optional().describe("Part of the identity's name, any case"),
    }),
    response: z.object({
      identityMemberships: z.array(ProjectIdentityMembershipSchema),
      totalCount: z.number().int(),
    }),
    permission: identityPermission("read"),
  }),
  defineEndpoint({
    id: "identityMemberships.get",
    method: "GET",
    path: "/api/v2/workspace/{projectId}/identity-memberships/{identityId}",
    summary: "Read an identity's membership of a project",
    params: ProjectIdentityParams,
    response: z.object({ identityMembership: ProjectIdentityMembershipSchema }),
    permission: identityPermission("read"),
  }),
  defineEndpoint({
    id: "identityMemberships.update",
    method: "PATCH",
    path: "/api/v2/workspace/{projectId}/identity-memberships/{identityId}",
    summary: "Replace the roles of an identity in a project",
    params: ProjectIdentityParams,
    body: UpdateIdentityMembershipBodySchema,
    response: z.object({ roles: z.array(MembershipRoleRowSchema) }),
    permission: identityPermission("edit"),
  }),
  defineEndpoint({
    id: "identityMemberships.remove",
    method: "DELETE",
    path: "/api/v2/workspace/{projectId}/identity-memberships/{identityId}",
    summary: "Remove an identity from a project, with its additional privileges there",
    params: ProjectIdentityParams,
    response: z.object({ identityMembership: IdentityMembershipRecordSchema }),
    permission: identityPermission("delete"),
  }),
] as const;
