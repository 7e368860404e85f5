import type { ColumnType, Generated } from "kysely";
import type { Flag, Timestamp } from "./schema.ts";

type NullableTimestamp = ColumnType<Date | string | null, string | null | undefined, string | null>;

/**
 * One audit event, a link of its organisation's chain. JSON columns hold text. A tombstone
 * (`pruned` 1) keeps only its place, time and hashes.
 */
export interface AuditEventTable {
  id: string;
  org_id: string;
  org_seq: number;
  project_id: string | null;
  project_name: string | null;
  event_type: string | null;
  event_metadata: string | null;
  actor_type: string | null;
  actor_id: string | null;
  actor_metadata: string | null;
  ip_address: string | null;
  user_agent: string | null;
  user_agent_type: string | null;
  request_id: string | null;
  environment: string | null;
  secret_path: string | null;
  secret_key: string | null;
  created_at: Timestamp;
  /** Hex SHA-256 of the event's canonical JSON. */
  content_hash: string;
  /** Hex HMAC-SHA256 over the previous link's hash, this event's org_seq and content_hash. */
  hash: string;
  pruned: Generated<Flag>;
}

/** The last link of an organisation's chain and the checkpoint pruning left. */
export interface AuditChainHeadTable {
  org_id: string;
  last_seq: number;
  last_hash: string;
  /** Events up to this org_seq were pruned away; 0: none. */
  checkpoint_seq: Generated<number>;
  /** The hash of the event at checkpoint_seq. */
  checkpoint_hash: string | null;
  /** Hex HMAC over the organisation, checkpoint_seq and checkpoint_hash. */
  checkpoint_signature: string | null;
  updated_at: Timestamp;
}

/** Where an organisation's events are sent, and how far delivery got. */
export interface AuditLogStreamTable {
  id: string;
  org_id: string;
  /** "custom": an HTTP endpoint. */
  provider: string;
  /** "2026": JSON arrays of flat rows in batches; "2024": one object per event. */
  api: string;
  url: string;
  /** The headers as JSON, sealed by the root key. */
  sealed_headers: string;
  filters: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** The org_seq of the last event the receiver accepted. */
  cursor_seq: Generated<number>;
  last_success_at: NullableTimestamp;
  last_error: string | null;
  last_error_at: NullableTimestamp;
  failures: Generated<number>;
  next_attempt_at: NullableTimestamp;
  lease_owner: string | null;
  lease_until: NullableTimestamp;
}
