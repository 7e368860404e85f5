import { describe, expect, it } from "vitest";
import { keysNamedIn, type SendBatch, saveStaged } from "./save-staged";
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
