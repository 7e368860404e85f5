import { describe, expect, it } from "vitest";
import {
  batches,
  emptyStaged,
  markApplied,
  markFailed,
  pendingChange,
  pendingChanges,
  problems,
  type Staged,
  stageCreate,
  stagedCount,
  stagedCreates,
  stageDelete,
  stageEdit,
  stageRename,
  unstage,
} from "./staged-changes";

const dev = { environment: "dev", secretPath: "/" };
const prod = { environment: "prod", secretPath: "/api" };

const run = (...steps: ((staged: Staged) => Staged)[]) => steps.reduce((staged, step) => step(staged), emptyStaged);

describe("staging changes", () => {
  it("merges edits of one secret into one update and counts secrets, not edits", () => {
    const staged = run(
      (s) => stageEdit(s, dev, "A", { secretValue: "one" }),
      (s) => stageEdit(s, dev, "A", { secretComment: "note" }),
      (s) => stageEdit(s, dev, "A", { secretValue: "two" }),
      (s) => stageEdit(s, dev, "B", { secretValue: "b" }),
    );
    expect(stagedCount(staged)).toBe(2);
    expect(pendingChange(staged, dev, "A")?.change).toEqual({
      kind: "update",
      secretKey: "A",
      secretValue: "two",
      secretComment: "note",
    });
  });

  it("keeps each folder's changes apart", () => {
    const staged = run(
      (s) => stageEdit(s, dev, "A", { secretValue: "dev" }),
      (s) => stageEdit(s, prod, "A", { secretValue: "prod" }),
    );
    expect(stagedCount(staged)).toBe(2);
    expect(pendingChanges(staged, prod)).toEqual([
      { place: prod, change: { kind: "update", secretKey: "A", secretValue: "prod" } },
    ]);
  });

  it("a rename back to the original key, with nothing else changed, is no change", () => {
    const staged = run(
      (s) => stageRename(s, dev, "A", "A2"),
      (s) => stageRename(s, dev, "A", "A"),
    );
    expect(stagedCount(staged)).toBe(0);
    expect(staged.folders.size).toBe(0);
  });

  it("edits and renames of a new secret change the addition itself", () => {
    const staged = run(
      (s) => stageCreate(s, dev, { secretKey: "NEW", secretValue: "v1" }),
      (s) => stageEdit(s, dev, "NEW", { secretValue: "v2", secretComment: "c" }),
      (s) => stageRename(s, dev, "NEW", "NEWER"),
    );
    expect(pendingChanges(staged)).toEqual([
      { place: dev, change: { kind: "create", secretKey: "NEWER", secretValue: "v2", secretComment: "c" } },
    ]);
    expect(stagedCreates(staged, dev).map((c) => c.secretKey)).toEqual(["NEWER"]);
  });

  it("deleting a new secret leaves nothing; deleting an edited one leaves only the deletion", () => {
    const staged = run(
      (s) => stageCreate(s, dev, { secretKey: "NEW", secretValue: "v" }),
      (s) => stageDelete(s, dev, "NEW"),
      (s) => stageEdit(s, dev, "OLD", { secretValue: "x" }),
      (s) => stageRename(s, dev, "OLD", "OLDER"),
      (s) => stageDelete(s, dev, "OLD"),
      // An edit of a secret staged for deletion changes nothing.
      (s) => stageEdit(s, dev, "OLD", { secretValue: "y" }),
    );
    expect(pendingChanges(staged).map(({ change }) => change)).toEqual([{ kind: "delete", secretKey: "OLD" }]);
  });

  it("adding a key staged for deletion stages its new value instead", () => {
    const staged = run(
      (s) => stageDelete(s, dev, "A"),
      (s) => stageCreate(s, dev, { secretKey: "A", secretValue: "again" }),
    );
    expect(pendingChange(staged, dev, "A")?.change).toEqual({
      kind: "update",
      secretKey: "A",
      secretValue: "again",
      secretComment: "",
    });
  });

  it("undoes one change and leaves the others", () => {
    const staged = run(
      (s) => stageEdit(s, dev, "A", { secretValue: "a" }),
      (s) => stageDelete(s, dev, "B"),
      (s) => unstage(s, dev, "A"),
    );
    expect(pendingChanges(staged).map(({ change }) => change.secretKey)).toEqual(["B"]);
  });

  it("never changes the model it was given", () => {
    const before = stageEdit(emptyStaged, dev, "A", { secretValue: "a" });
    const snapshot = JSON.stringify(pendingChanges(before));
    stageDelete(before, dev, "A");
    stageEdit(before, dev, "A", { secretValue: "b" });
    unstage(before, dev, "A");
    expect(JSON.stringify(pendingChanges(before))).toBe(snapshot);
    expect(stagedCount(emptyStaged)).toBe(0);
  });
});

describe("batches", () => {
  it("gives one create, update and delete list per folder, in the wire's item shapes", () => {
    const staged = run(
      (s) => stageCreate(s, dev, { secretKey: "NEW", secretValue: "n", secretComment: "c" }),
      (s) => stageEdit(s, dev, "A", { secretValue: "a" }),
      (s) => stageRename(s, dev, "B", "B2"),
      (s) => stageDelete(s, dev, "C"),
      (s) => stageEdit(s, prod, "A", { secretComment: "only the comment" }),
    );
    expect(batches(staged).map(({ changes: _sources, ...batch }) => batch)).toEqual([
      {
        place: dev,
        create: [{ secretKey: "NEW", secretValue: "n", secretComment: "c" }],
        update: [
          { secretKey: "A", secretValue: "a" },
          { secretKey: "B", newSecretName: "B2" },
        ],
        delete: [{ secretKey: "C" }],
      },
      { place: prod, create: [], update: [{ secretKey: "A", secretComment: "only the comment" }], delete: [] },
    ]);
  });

  it("an applied kind leaves the model; a failed one keeps its changes with the error, by named key", () => {
    let staged = run(
      (s) => stageEdit(s, dev, "A", { secretValue: "a" }),
      (s) => stageRename(s, dev, "B", "B2"),
      (s) => stageDelete(s, dev, "C"),
    );
    const [batch] = batches(staged);
    staged = markApplied(staged, batch?.changes.delete ?? []);
    staged = markFailed(staged, batch?.changes.update ?? [], "Secret already exists: B2", ["B2"]);
    expect(pendingChanges(staged).map(({ change, error }) => [change.secretKey, error])).toEqual([
      ["A", "Not saved: the batch was refused (B2)."],
      ["B", "Secret already exists: B2"],
    ]);
    // Staging the change again clears its error.
    staged = stageEdit(staged, dev, "B", { secretValue: "b" });
    expect(pendingChange(staged, dev, "B")?.error).toBeUndefined();
  });
});

describe("problems", () => {
  const existing = new Set(["A", "B", "C"]);

  it("flags an addition or rename onto a key that exists, unless that key is being deleted", () => {
    const staged = run(
      (s) => stageCreate(s, dev, { secretKey: "A", secretValue: "x" }),
      (s) => stageRename(s, dev, "B", "C"),
    );
    expect(problems(staged, dev, existing)).toEqual([
      { secretKey: "A", message: "A already exists in this folder." },
      { secretKey: "B", message: "C already exists in this folder." },
    ]);
    expect(problems(stageDelete(staged, dev, "C"), dev, existing)).toEqual([
      { secretKey: "A", message: "A already exists in this folder." },
    ]);
  });

  it("flags two changes onto one new key and keys the server would refuse", () => {
    const staged = run(
      (s) => stageCreate(s, dev, { secretKey: "D", secretValue: "x" }),
      (s) => stageRename(s, dev, "A", "D"),
      (s) => stageCreate(s, dev, { secretKey: "bad key", secretValue: "x" }),
    );
    const validKey = (key: string) => (key.includes(" ") ? "A key has no spaces." : undefined);
    expect(problems(staged, dev, existing, validKey)).toEqual([
      { secretKey: "A", message: "Another staged change also makes the key D." },
      { secretKey: "bad key", message: "A key has no spaces." },
    ]);
  });
});
