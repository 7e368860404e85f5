import type { ColumnType, Generated, Insertable, Selectable } from "kysely";
import type { Flag, Timestamp } from "./schema.ts";

type NullableTimestamp = ColumnType<Date | string | null, string | null | undefined, string | null>;

/** Bytes: Buffer from both drivers (bytea / blob). */
export type Bytes = Buffer;

/** A project's data key, sealed by the root key. */
export interface ProjectDataKeyTable {
  project_id: string;
  wrapped_key: string;
  created_at: Timestamp;
}

/** A folder in an environment's tree; parent_id null marks the root ("/"). */
export interface SecretFolderTable {
  id: string;
  env_id: string;
  parent_id: string | null;
  name: string;
  version: Generated<number>;
  description: string | null;
  is_reserved: Generated<Flag>;
  last_secret_modified: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SecretTagTable {
  id: string;
  project_id: string;
  slug: string;
  color: string | null;
  created_by: string | null;
  created_by_actor_type: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A secret; value and comment are AES-256-GCM ciphertexts bound to (id, column). */
export interface SecretTable {
  id: string;
  project_id: string;
  env_id: string;
  folder_id: string;
  /** "shared" or "personal" (then user_id is set). */
  type: string;
  user_id: string | null;
  key: string;
  version: number;
  value_ciphertext: Bytes;
  comment_ciphertext: Bytes;
  skip_multiline_encoding: Generated<Flag>;
  reminder_note: string | null;
  reminder_repeat_days: number | null;
  /** JSON array of recipient ids. */
  reminder_recipients: string | null;
  /** JSON array of {key, value}. */
  metadata: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One version of a secret, ciphertexts bound to the version row's own id. */
export interface SecretVersionTable {
  id: string;
  secret_id: string;
  project_id: string;
  env_id: string;
  folder_id: string;
  type: string;
  user_id: string | null;
  key: string;
  version: number;
  value_ciphertext: Bytes;
  comment_ciphertext: Bytes;
  skip_multiline_encoding: Generated<Flag>;
  reminder_note: string | null;
  reminder_repeat_days: number | null;
  metadata: string | null;
  actor_type: string | null;
  actor_id: string | null;
  actor_name: string | null;
  actor_membership_id: string | null;
  created_at: Timestamp;
}

export interface SecretTagLinkTable {
  secret_id: string;
  tag_id: string;
}

export type SecretFolderRow = Selectable<SecretFolderTable>;
export type SecretTagRow = Selectable<SecretTagTable>;
export type SecretRow = Selectable<SecretTable>;
export type NewSecret = Insertable<SecretTable>;
export type SecretVersionRow = Selectable<SecretVersionTable>;
export type NewSecretVersion = Insertable<SecretVersionTable>;

/** A folder's state after one change (see migration 0008): which secret versions, sub-folders, imports. */
export interface FolderCommitTable {
  id: string;
  project_id: string;
  env_id: string;
  folder_id: string;
  parent_folder_id: string | null;
  /** The commit's number in its folder's history. */
  seq: number;
  actor_type: string;
  actor_id: string | null;
  actor_name: string | null;
  message: string | null;
  /** JSON: `FolderState`. */
  state: string;
  created_at: Timestamp;
}
export type FolderCommitRow = Selectable<FolderCommitTable>;
