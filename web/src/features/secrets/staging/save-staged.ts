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

export interface SaveResult {
  /**
   * The model as it is now (changes may have been staged during the save) without what was
   * applied, with the refused batch's errors; what was not tried stays as it is.
   */
  settle: (current: Staged) => Staged;
  /** How many batches were applied (one request each). */
  applied: number;
  /** The first refusal, when a batch failed: the save stops there. */
  failure?: { place: StagingPlace; kind: BatchKind; error: unknown };
}

/**
 * Saves every pending change: per folder, one request per kind that has changes, in
 * `BATCH_ORDER`, each all or nothing on the server. It stops at the first refusal: what was
 * applied leaves the model, the refused batch's changes stay with the server's message (on the
 * rows whose keys the message names, when it names any), and everything after stays pending.
 * Nothing staged is lost.
 */
export async function saveStaged(
  staged: Staged,
  send: SendBatch,
  describe: (error: unknown) => string,
): Promise<SaveResult> {
  const done: PendingChange[] = [];
  let applied = 0;
  for (const batch of batches(staged)) {
    for (const kind of BATCH_ORDER) {
      const items = batch[kind];
      if (items.length === 0) continue;
      try {
        await send(batch.place, kind, items);
      } catch (error) {
        const message = describe(error);
        const named = keysNamedIn(message, batchKeys(batch, kind));
        const refused = batch.changes[kind];
        return {
          settle: (current) => markFailed(markApplied(current, done), refused, message, named),
          applied,
          failure: { place: batch.place, kind, error },
        };
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
