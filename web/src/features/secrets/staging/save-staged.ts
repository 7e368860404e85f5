import {
  BATCH_ORDER,
  type BatchKind,
  batches,
  batchKeys,
  type FolderBatch,
  markApplied,
  markFailed,
  type PendingChange,
  type Staged,
  type StagingPlace,
} from "./staged-changes";

/** Sends one folder's batch of one kind (one request); rejects when the server refuses it. */
export type SendBatch = <K extends BatchKind>(place: StagingPlace, kind: K, items: FolderBatch[K]) => Promise<unknown>;

/** Sends all of one folder's changes as one commit (one request); rejects when the server refuses it. */
export type SendCommit = (batch: FolderBatch, message: string) => Promise<unknown>;

export interface CommitOptions {
  send: SendCommit;
  /** The commit's message; by default "Update N secrets" (N the folder's changes). */
  message?: string | undefined;
  /**
   * A refusal that means this server offers no such commit to this caller (404, or 403 as
   * Infisical answers identities there): the folders are then saved by their batches instead.
   */
  unsupported: (error: unknown) => boolean;
}

export interface SaveResult {
  /**
   * The model as it is now (changes may have been staged during the save) without what was
   * applied, with the refused batch's errors; what was not tried stays as it is.
   */
  settle: (current: Staged) => Staged;
  /** How many batches were applied (one request each). */
  applied: number;
  /** The first refusal, when a request failed: the save stops there. */
  failure?: { place: StagingPlace; kind: BatchKind | "commit"; error: unknown };
}

/**
 * Saves every pending change. With `commit`, each folder's changes go in one request, all or
 * nothing, as one entry of its history; a server without that endpoint (see `unsupported`) gets
 * what follows: per folder, one request per kind that has changes, in `BATCH_ORDER`, each all or
 * nothing on the server. The save stops at the first refusal: what was applied leaves the model,
 * the refused request's changes stay with the server's message (on the rows whose keys the
 * message names, when it names any), and everything after stays pending. Nothing staged is lost.
 */
export async function saveStaged(
  staged: Staged,
  send: SendBatch,
  describe: (error: unknown) => string,
  commit?: CommitOptions,
): Promise<SaveResult> {
  const done: PendingChange[] = [];
  let applied = 0;
  let byCommit = commit !== undefined;
  const refusal = (
    batch: FolderBatch,
    refused: PendingChange[],
    keys: string[],
    kind: BatchKind | "commit",
    error: unknown,
  ) => {
    const message = describe(error);
    const named = keysNamedIn(message, keys);
    return {
      settle: (current: Staged) => markFailed(markApplied(current, done), refused, message, named),
      applied,
      failure: { place: batch.place, kind, error },
    };
  };
  for (const batch of batches(staged)) {
    if (commit && byCommit) {
      const all = BATCH_ORDER.flatMap((kind) => batch.changes[kind]);
      const count = all.length;
      try {
        await commit.send(batch, commit.message?.trim() || `Update ${count} ${count === 1 ? "secret" : "secrets"}`);
        done.push(...all);
        applied += 1;
        continue;
      } catch (error) {
        if (!commit.unsupported(error)) {
          return refusal(
            batch,
            all,
            BATCH_ORDER.flatMap((kind) => batchKeys(batch, kind)),
            "commit",
            error,
          );
        }
        byCommit = false;
      }
    }
    for (const kind of BATCH_ORDER) {
      const items = batch[kind];
      if (items.length === 0) continue;
      try {
        await send(batch.place, kind, items);
      } catch (error) {
        return refusal(batch, batch.changes[kind], batchKeys(batch, kind), kind, error);
      }
      done.push(...batch.changes[kind]);
      applied += 1;
    }
  }
  return { settle: (current) => markApplied(current, done), applied };
}

const keyChar = /[A-Za-z0-9_.-]/;

/**
 * The batch's keys an error message names as whole words ("Secret already exists: API_KEY"),
 * longest first so that API_KEY_2 is not also read as API_KEY.
 */
export function keysNamedIn(message: string, keys: readonly string[]): string[] {
  const named: string[] = [];
  let rest = message;
  for (const key of [...new Set(keys)].sort((a, b) => b.length - a.length)) {
    let at = rest.indexOf(key);
    while (at !== -1) {
      const before = rest[at - 1];
      const after = rest[at + key.length];
      if ((!before || !keyChar.test(before)) && (!after || !keyChar.test(after))) {
        named.push(key);
        rest = `${rest.slice(0, at)} ${rest.slice(at + key.length)}`;
        break;
      }
      at = rest.indexOf(key, at + 1);
    }
  }
  return named;
}
