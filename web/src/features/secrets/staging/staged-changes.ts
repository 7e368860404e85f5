/**
 * Pending changes to secrets, held in memory until one save: a pure, immutable model with no
 * React and no requests. Every function returns a new `Staged` (or reads one); the same `Staged`
 * may hold changes for many folders (an environment and a path), so a page that shows several
 * environments at once keeps one.
 *
 * A change is addressed by the folder and the key the secret has on the server (for a new
 * secret: the key it will have). At most one change per secret: staging again merges into it
 *   - edit after add: the add takes the new value; edit after edit: fields merge;
 *   - rename after add: the add takes the new key; rename back to the original key: no rename;
 *   - remove after add: nothing is pending; remove after edit/rename: only the delete is.
 * An edit or rename that ends up changing nothing is dropped, so `count` is what a save would change.
 *
 * `batches` turns the changes into the wire items of the batch endpoints (one create, one update
 * and one delete list per folder), `problems` says what a save would refuse before it is sent.
 */

/** A folder of a project: an environment's slug and a path. */
export interface StagingPlace {
  environment: string;
  secretPath: string;
}

export interface StagedCreate {
  kind: "create";
  secretKey: string;
  secretValue: string;
  secretComment: string;
}

export interface StagedUpdate {
  kind: "update";
  /** The key the secret has now. */
  secretKey: string;
  secretValue?: string;
  secretComment?: string;
  /** Rename to this key. */
  newSecretKey?: string;
}

export interface StagedDelete {
  kind: "delete";
  secretKey: string;
}

export type StagedChange = StagedCreate | StagedUpdate | StagedDelete;

/** A pending change with where it goes, and what the last save attempt said about it. */
export interface PendingChange {
  place: StagingPlace;
  change: StagedChange;
  /** Why the last save did not apply it (cleared when the change is staged again). */
  error?: string;
}

/** All pending changes, by folder and then by key (see the module's comment). */
export interface Staged {
  readonly folders: ReadonlyMap<string, ReadonlyMap<string, PendingChange>>;
}

/** What the batch endpoints take for one folder; a kind with nothing to do is an empty list. */
export interface FolderBatch {
  place: StagingPlace;
  /** The pending changes each kind's items come from (to settle them with `markApplied` / `markFailed`). */
  changes: Record<BatchKind, PendingChange[]>;
  create: { secretKey: string; secretValue: string; secretComment: string }[];
  update: { secretKey: string; secretValue?: string; secretComment?: string; newSecretName?: string }[];
  delete: { secretKey: string }[];
}

export type BatchKind = "create" | "update" | "delete";

/**
 * The order a save sends one folder's batches in: deletes first, so a key deleted and created
 * again (or a rename onto a key being deleted) works; creates last, after renames free their keys.
 */
export const BATCH_ORDER: readonly BatchKind[] = ["delete", "update", "create"];

const placeId = ({ environment, secretPath }: StagingPlace) => `${environment}\u0000${secretPath}`;

export const emptyStaged: Staged = { folders: new Map() };

function folderOf(staged: Staged, place: StagingPlace): ReadonlyMap<string, PendingChange> {
  return staged.folders.get(placeId(place)) ?? new Map();
}

function withFolder(staged: Staged, place: StagingPlace, folder: ReadonlyMap<string, PendingChange>): Staged {
  const folders = new Map(staged.folders);
  if (folder.size === 0) folders.delete(placeId(place));
  else folders.set(placeId(place), folder);
  return { folders };
}

function put(staged: Staged, place: StagingPlace, key: string, change: StagedChange | undefined): Staged {
  const folder = new Map(folderOf(staged, place));
  folder.delete(key);
  if (change) folder.set(change.kind === "create" ? change.secretKey : key, { place, change });
  return withFolder(staged, place, folder);
}

/** An update that changes nothing any more is no change. */
function normalised(update: StagedUpdate): StagedUpdate | undefined {
  const { secretKey, secretValue, secretComment, newSecretKey } = update;
  const rename = newSecretKey !== undefined && newSecretKey !== secretKey ? newSecretKey : undefined;
  if (secretValue === undefined && secretComment === undefined && rename === undefined) return undefined;
  return {
    kind: "update",
    secretKey,
    ...(secretValue !== undefined ? { secretValue } : {}),
    ...(secretComment !== undefined ? { secretComment } : {}),
    ...(rename !== undefined ? { newSecretKey: rename } : {}),
  };
}

/** The pending change of one secret (by its key on the server, or a new secret's key). */
export function pendingChange(staged: Staged, place: StagingPlace, secretKey: string): PendingChange | undefined {
  return folderOf(staged, place).get(secretKey);
}

/**
 * Stages a new secret. Adding a key already staged as new replaces that addition; adding a key
 * staged for deletion stages its new value and comment instead (the secret stays, with its tags).
 */
export function stageCreate(
  staged: Staged,
  place: StagingPlace,
  secret: { secretKey: string; secretValue: string; secretComment?: string },
): Staged {
  const { secretKey, secretValue, secretComment = "" } = secret;
  if (pendingChange(staged, place, secretKey)?.change.kind === "delete") {
    return put(staged, place, secretKey, { kind: "update", secretKey, secretValue, secretComment });
  }
  return put(staged, place, secretKey, { kind: "create", secretKey, secretValue, secretComment });
}

/**
 * Stages a new value and/or comment for a secret (an existing one, by its key on the server, or
 * a staged new one, by its key). A secret staged for deletion stays so.
 */
export function stageEdit(
  staged: Staged,
  place: StagingPlace,
  secretKey: string,
  fields: { secretValue?: string; secretComment?: string },
): Staged {
  const change = pendingChange(staged, place, secretKey)?.change;
  if (change?.kind === "create") return put(staged, place, secretKey, { ...change, ...definedOnly(fields) });
  if (change?.kind === "delete") return staged;
  const base: StagedUpdate = change ?? { kind: "update", secretKey };
  return put(staged, place, secretKey, normalised({ ...base, ...definedOnly(fields) }));
}

/** Stages a new key for a secret (existing, by its key on the server, or staged new). */
export function stageRename(staged: Staged, place: StagingPlace, secretKey: string, newSecretKey: string): Staged {
  const change = pendingChange(staged, place, secretKey)?.change;
  if (change?.kind === "create") return put(staged, place, secretKey, { ...change, secretKey: newSecretKey });
  if (change?.kind === "delete") return staged;
  const base: StagedUpdate = change ?? { kind: "update", secretKey };
  return put(staged, place, secretKey, normalised({ ...base, newSecretKey }));
}

/** Stages the deletion of a secret; a staged new secret is simply dropped. */
export function stageDelete(staged: Staged, place: StagingPlace, secretKey: string): Staged {
  const change = pendingChange(staged, place, secretKey)?.change;
  if (change?.kind === "create") return put(staged, place, secretKey, undefined);
  return put(staged, place, secretKey, { kind: "delete", secretKey });
}

/** Undoes the pending change of one secret. */
export function unstage(staged: Staged, place: StagingPlace, secretKey: string): Staged {
  return put(staged, place, secretKey, undefined);
}

/** How many secrets a save would change. */
export function stagedCount(staged: Staged): number {
  let count = 0;
  for (const folder of staged.folders.values()) count += folder.size;
  return count;
}

/** Every pending change, folder by folder, in the order they were first staged. */
export function pendingChanges(staged: Staged, place?: StagingPlace): PendingChange[] {
  if (place) return [...folderOf(staged, place).values()];
  return [...staged.folders.values()].flatMap((folder) => [...folder.values()]);
}

/** The secrets a folder will have that it has not now (staged additions), in key order. */
export function stagedCreates(staged: Staged, place: StagingPlace): StagedCreate[] {
  return pendingChanges(staged, place)
    .map(({ change }) => change)
    .filter((change): change is StagedCreate => change.kind === "create")
    .sort((a, b) => a.secretKey.localeCompare(b.secretKey));
}

/** The wire items of each folder's batches (see `BATCH_ORDER` for the order to send them in). */
export function batches(staged: Staged): FolderBatch[] {
  return [...staged.folders.values()].map((folder) => {
    const first = folder.values().next().value as PendingChange;
    const batch: FolderBatch = {
      place: first.place,
      changes: { create: [], update: [], delete: [] },
      create: [],
      update: [],
      delete: [],
    };
    for (const pending of folder.values()) {
      const { change } = pending;
      batch.changes[change.kind].push(pending);
      if (change.kind === "create") {
        const { secretKey, secretValue, secretComment } = change;
        batch.create.push({ secretKey, secretValue, secretComment });
      } else if (change.kind === "delete") {
        batch.delete.push({ secretKey: change.secretKey });
      } else {
        const { secretKey, secretValue, secretComment, newSecretKey } = change;
        batch.update.push({
          secretKey,
          ...(secretValue !== undefined ? { secretValue } : {}),
          ...(secretComment !== undefined ? { secretComment } : {}),
          ...(newSecretKey !== undefined ? { newSecretName: newSecretKey } : {}),
        });
      }
    }
    return batch;
  });
}

/** The keys a folder's batch of one kind names (for matching a server's error to its rows). */
export function batchKeys(batch: FolderBatch, kind: BatchKind): string[] {
  return batch[kind].flatMap((item) =>
    "newSecretName" in item && item.newSecretName ? [item.secretKey, item.newSecretName] : [item.secretKey],
  );
}

/**
 * These changes were applied: they leave the model, unless one was staged again since it was
 * sent (then it is another object, and stays pending).
 */
export function markApplied(staged: Staged, applied: readonly PendingChange[]): Staged {
  return settle(staged, applied, () => undefined);
}

/**
 * These changes (one batch) were refused: each keeps `message`, or, when the server named keys
 * (`keys`, matched against each change's keys, old and new), only those do and the others say the
 * batch was refused because of them. A change staged again since it was sent is left as it is.
 */
export function markFailed(
  staged: Staged,
  refused: readonly PendingChange[],
  message: string,
  keys: readonly string[] = [],
): Staged {
  const named = new Set(keys);
  return settle(staged, refused, (pending) => {
    const own = changeKeys(pending.change).some((key) => named.has(key));
    const error = named.size === 0 || own ? message : `Not saved: the batch was refused (${[...named].join(", ")}).`;
    return { ...pending, error };
  });
}

function settle(
  staged: Staged,
  sent: readonly PendingChange[],
  next: (pending: PendingChange) => PendingChange | undefined,
): Staged {
  const were = new Set(sent);
  const folders = new Map<string, ReadonlyMap<string, PendingChange>>();
  for (const [id, folder] of staged.folders) {
    const kept = new Map<string, PendingChange>();
    for (const [key, pending] of folder) {
      const settled = were.has(pending) ? next(pending) : pending;
      if (settled) kept.set(key, settled);
    }
    if (kept.size > 0) folders.set(id, kept);
  }
  return { folders };
}

/** Keys a change touches: its key, and the new one of a rename. */
export function changeKeys(change: StagedChange): string[] {
  return change.kind === "update" && change.newSecretKey ? [change.secretKey, change.newSecretKey] : [change.secretKey];
}

/** A change a save would refuse, and why. */
export interface StagingProblem {
  /** The change's key in the model (see `pendingChange`). */
  secretKey: string;
  message: string;
}

/**
 * What is wrong with a folder's pending changes before they are sent, given the keys the folder
 * has now: an addition or rename onto a key that exists and is not being deleted or renamed away,
 * two changes onto one key, a key that the server would refuse (`validKey`).
 */
export function problems(
  staged: Staged,
  place: StagingPlace,
  existingKeys: ReadonlySet<string>,
  validKey: (key: string) => string | undefined = () => undefined,
): StagingProblem[] {
  const pending = pendingChanges(staged, place);
  const leaving = new Set<string>();
  for (const { change } of pending) {
    if (change.kind === "delete") leaving.add(change.secretKey);
  }
  const found: StagingProblem[] = [];
  const arriving = new Set<string>();
  for (const { change } of pending) {
    const target =
      change.kind === "create" ? change.secretKey : change.kind === "update" ? change.newSecretKey : undefined;
    if (target === undefined) continue;
    const id = change.secretKey;
    const invalid = validKey(target);
    if (invalid) found.push({ secretKey: id, message: invalid });
    else if (existingKeys.has(target) && !leaving.has(target)) {
      found.push({ secretKey: id, message: `${target} already exists in this folder.` });
    } else if (arriving.has(target)) {
      found.push({ secretKey: id, message: `Another staged change also makes the key ${target}.` });
    }
    arriving.add(target);
  }
  return found;
}

function definedOnly<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;
}
