import { describe, expect, it } from "vitest";
import { type CommitOptions, keysNamedIn, type SendBatch, saveStaged } from "./save-staged";
import {
  type BatchKind,
  emptyStaged,
  pendingChanges,
  type Staged,
  stageCreate,
  stageDelete,
  stageEdit,
  stageRename,
  type StagingPlace,
} from "./staged-changes";

const dev = { environment: "dev", secretPath: "/" };
const prod = { environment: "prod", secretPath: "/" };
const describeError = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Records what was sent; refuses the batch `refuse` names with `message`. */
function recorder(refuse?: { place: StagingPlace; kind: BatchKind; message: string }) {
  const sent: string[] = [];
  const send: SendBatch = async (place, kind, items) => {
    sent.push(`${kind} ${place.environment} ${items.map((item) => item.secretKey).join(",")}`);
    if (refuse && refuse.kind === kind && refuse.place.environment === place.environment) {
      throw new Error(refuse.message);
    }
  };
  return { sent, send };
}

const staged: Staged = [
  (s: Staged) => stageCreate(s, dev, { secretKey: "NEW", secretValue: "n" }),
  (s: Staged) => stageEdit(s, dev, "A", { secretValue: "a" }),
  (s: Staged) => stageRename(s, dev, "B", "B2"),
  (s: Staged) => stageDelete(s, dev, "C"),
  (s: Staged) => stageEdit(s, prod, "A", { secretValue: "p" }),
].reduce((s, step) => step(s), emptyStaged);

describe("saveStaged", () => {
  it("sends one request per folder and kind, deletes first and creates last", async () => {
    const { sent, send } = recorder();
    const result = await saveStaged(staged, send, describeError);
    expect(sent).toEqual(["delete dev C", "update dev A,B", "create dev NEW", "update prod A"]);
    expect(result.applied).toBe(4);
    expect(result.failure).toBeUndefined();
    expect(pendingChanges(result.settle(staged))).toEqual([]);
  });

  it("edits and a rename and a delete are two requests", async () => {
    const { sent, send } = recorder();
    let many = emptyStaged;
    for (let i = 0; i < 10; i++) many = stageEdit(many, dev, `K${i}`, { secretValue: `v${i}` });
    many = stageDelete(stageRename(many, dev, "R", "R2"), dev, "D");
    await saveStaged(many, send, describeError);
    expect(sent).toHaveLength(2);
  });

  it("stops at a refusal: applied batches leave, the refused one keeps its errors, the rest stays", async () => {
    const { sent, send } = recorder({ place: dev, kind: "update", message: "Secret does not exist: B in path /" });
    const result = await saveStaged(staged, send, describeError);
    expect(sent).toEqual(["delete dev C", "update dev A,B"]);
    expect(result.failure?.kind).toBe("update");
    expect(
      pendingChanges(result.settle(staged)).map(({ place, change, error }) => [
        place.environment,
        change.secretKey,
        error,
      ]),
    ).toEqual([
      ["dev", "NEW", undefined],
      ["dev", "A", "Not saved: the batch was refused (B)."],
      ["dev", "B", "Secret does not exist: B in path /"],
      ["prod", "A", undefined],
    ]);
  });
});

it("keeps a change staged again while the save was under way", async () => {
  const { send } = recorder();
  const result = await saveStaged(staged, send, describeError);
  const during = stageEdit(staged, dev, "A", { secretValue: "typed during the save" });
  expect(pendingChanges(result.settle(during)).map(({ change }) => change)).toEqual([
    { kind: "update", secretKey: "A", secretValue: "typed during the save" },
  ]);
});

describe("keysNamedIn", () => {
  it("finds whole keys only, the longest first", () => {
    expect(keysNamedIn("Secret already exists: API_KEY_2", ["API_KEY", "API_KEY_2"])).toEqual(["API_KEY_2"]);
    expect(keysNamedIn("One or more secrets does not exist: A, B", ["A", "B", "C"])).toEqual(["A", "B"]);
    expect(keysNamedIn("Something went wrong", ["A"])).toEqual([]);
  });
});

describe("saveStaged with one commit per folder", () => {
  const unsupported = new Error("no such route");
  /** Records each folder's commit; refuses the folder `refuse` names with `error`. */
  function committer(refuse?: { environment: string; error: Error }) {
    const sent: string[] = [];
    const options = (message?: string): CommitOptions => ({
      send: async (batch, text) => {
        const keys = (["delete", "update", "create"] as const).map((kind) =>
          batch[kind].map((item) => item.secretKey).join(","),
        );
        sent.push(`commit ${batch.place.environment} [${keys.join("|")}] ${text}`);
        if (refuse && refuse.environment === batch.place.environment) throw refuse.error;
      },
      message,
      unsupported: (error) => error === unsupported,
    });
    return { sent, options };
  }

  it("sends each folder's changes in one request, with the message or a count", async () => {
    const { sent, options } = committer();
    const batchesSent = recorder();
    const result = await saveStaged(staged, batchesSent.send, describeError, options());
    expect(sent).toEqual(["commit dev [C|A,B|NEW] Update 4 secrets", "commit prod [|A|] Update 1 secret"]);
    expect(batchesSent.sent).toEqual([]);
    expect(result.applied).toBe(2);
    expect(pendingChanges(result.settle(staged))).toEqual([]);
    const named = committer();
    await saveStaged(staged, batchesSent.send, describeError, named.options("  Rotate keys "));
    expect(named.sent.map((line) => line.split("] ")[1])).toEqual(["Rotate keys", "Rotate keys"]);
  });

  it("ten edits, a rename and a delete are one request", async () => {
    const { sent, options } = committer();
    let many = emptyStaged;
    for (let i = 0; i < 10; i++) many = stageEdit(many, dev, `K${i}`, { secretValue: `v${i}` });
    many = stageDelete(stageRename(many, dev, "R", "R2"), dev, "D");
    await saveStaged(many, recorder().send, describeError, options());
    expect(sent).toHaveLength(1);
  });

  it("falls back to the batches when the server has no such commit, for every folder after", async () => {
    const { sent, options } = committer({ environment: "dev", error: unsupported });
    const batchesSent = recorder();
    const result = await saveStaged(staged, batchesSent.send, describeError, options());
    expect(sent).toHaveLength(1);
    expect(batchesSent.sent).toEqual(["delete dev C", "update dev A,B", "create dev NEW", "update prod A"]);
    expect(result.failure).toBeUndefined();
  });

  it("a refused commit keeps all of its folder's changes pending, with the message on the keys it names", async () => {
    const { options } = committer({ environment: "prod", error: new Error("Secret does not exist: A in path /") });
    const batchesSent = recorder();
    const result = await saveStaged(staged, batchesSent.send, describeError, options());
    expect(batchesSent.sent).toEqual([]);
    expect(result.applied).toBe(1);
    expect(result.failure?.kind).toBe("commit");
    const left = pendingChanges(result.settle(staged));
    expect(left.map((p) => [p.place.environment, p.change.secretKey, p.error])).toEqual([
      ["prod", "A", "Secret does not exist: A in path /"],
    ]);
  });
});
