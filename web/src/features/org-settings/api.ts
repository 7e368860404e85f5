import { type BodyOf, endpoints } from "@keyhold/contract";
import { call } from "@/lib/api-client";

const ep = {
  getRetention: endpoints["organizations.getAuditLogsRetention"],
  updateRetention: endpoints["organizations.updateAuditLogsRetention"],
  listProjects: endpoints["projects.list"],
  verify: endpoints["auditLogs.verify"],
  listStreams: endpoints["auditLogStreams.list"],
  streamStatus: endpoints["auditLogStreams.status"],
  createStream: endpoints["auditLogStreams.create"],
  updateStream: endpoints["auditLogStreams.update"],
  deleteStream: endpoints["auditLogStreams.delete"],
  testStream: endpoints["auditLogStreams.test"],
};

export type CreateStreamBody = BodyOf<typeof ep.createStream>;
export type UpdateStreamBody = BodyOf<typeof ep.updateStream>;

/** A stream is addressed by its provider and id (the provider routes of current servers). */
export interface StreamRef {
  provider: string;
  streamId: string;
}

/** Typed calls for the organisation's audit settings; each unwraps its response envelope once, here. */
export const auditSettingsApi = {
  retention: async (signal?: AbortSignal) => (await call(ep.getRetention, {}, { signal })).auditLogsRetentionDays,

  updateRetention: async (auditLogsRetentionDays: number) =>
    (await call(ep.updateRetention, { body: { auditLogsRetentionDays } })).auditLogsRetentionDays,

  /** The organisation's projects, for the retention each keeps of its own. */
  projects: async (signal?: AbortSignal) => (await call(ep.listProjects, {}, { signal })).workspaces,

  verify: async () => (await call(ep.verify, {})).verification,
};

export const streamsApi = {
  list: async (signal?: AbortSignal) => (await call(ep.listStreams, {}, { signal })).auditLogStreams,

  status: async (signal?: AbortSignal) => (await call(ep.streamStatus, {}, { signal })).streams,

  create: async (provider: string, body: CreateStreamBody) =>
    (await call(ep.createStream, { params: { provider }, body })).auditLogStream,

  update: async (ref: StreamRef, body: UpdateStreamBody) =>
    (await call(ep.updateStream, { params: ref, body })).auditLogStream,

  delete: async (ref: StreamRef) => (await call(ep.deleteStream, { params: ref })).auditLogStream,

  test: (ref: StreamRef) => call(ep.testStream, { params: ref }),
};
