import { type BodyOf, endpoints } from "@keyhold/contract";
import { call } from "@/lib/api-client";

const ep = {
  list: endpoints["projects.list"],
  get: endpoints["projects.get"],
  create: endpoints["projects.create"],
  update: endpoints["projects.update"],
  delete: endpoints["projects.delete"],
  createEnvironment: endpoints["environments.create"],
  updateEnvironment: endpoints["environments.update"],
  deleteEnvironment: endpoints["environments.delete"],
  updateAuditRetention: endpoints["projects.updateAuditLogsRetention"],
  orgAuditRetention: endpoints["organizations.getAuditLogsRetention"],
};

export type CreateProjectBody = BodyOf<typeof ep.create>;
export type UpdateProjectBody = BodyOf<typeof ep.update>;
export type CreateEnvironmentBody = BodyOf<typeof ep.createEnvironment>;
export type UpdateEnvironmentBody = BodyOf<typeof ep.updateEnvironment>;

/** Typed calls for projects and their environments; each unwraps its response envelope once, here. */
export const projectsApi = {
  list: async (signal?: AbortSignal) => (await call(ep.list, {}, { signal })).workspaces,

  get: async (projectId: string, signal?: AbortSignal) =>
    (await call(ep.get, { params: { workspaceId: projectId } }, { signal })).workspace,

  create: async (body: CreateProjectBody) => (await call(ep.create, { body })).project,

  update: async (projectId: string, body: UpdateProjectBody) =>
    (await call(ep.update, { params: { workspaceId: projectId }, body })).workspace,

  delete: async (projectId: string) => (await call(ep.delete, { params: { workspaceId: projectId } })).workspace,

  /** How many days the project's audit events are kept (1 to 3650). */
  updateAuditRetention: async (projectId: string, auditLogsRetentionDays: number) =>
    (await call(ep.updateAuditRetention, { params: { projectId }, body: { auditLogsRetentionDays } })).project,

  /** The organisation's default retention, for projects without their own. */
  orgAuditRetention: async (signal?: AbortSignal) =>
    (await call(ep.orgAuditRetention, {}, { signal })).auditLogsRetentionDays,
};

export const environmentsApi = {
  create: async (projectId: string, body: CreateEnvironmentBody) =>
    (await call(ep.createEnvironment, { params: { workspaceId: projectId }, body })).environment,

  update: async (projectId: string, environmentId: string, body: UpdateEnvironmentBody) =>
    (await call(ep.updateEnvironment, { params: { workspaceId: projectId, id: environmentId }, body })).environment,

  delete: async (projectId: string, environmentId: string) =>
    (await call(ep.deleteEnvironment, { params: { workspaceId: projectId, id: environmentId } })).environment,
};
