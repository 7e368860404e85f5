import { loadRecordings, type Recording, sampleDir } from "@keyhold/fixtures";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { createProject } from "../test/project-fixtures.ts";
import { shapeOf, shapesSideBySide } from "../test/shapes.ts";

/** The mid-2026 server's batch recordings (071–089), with the state reads between them. */
const recordings = loadRecordings(sampleDir(2026, "more")).filter((r) => {
  const n = Number(r.file.slice(0, 3));
  return n >= 71 && n <= 89;
});
const recordedProject = (recordings[0]?.request.body as { workspaceId: string }).workspaceId;

type Listed = { secretKey: string; secretValue: string; version: number };

/** What a recorded or answered body says about the batch's secrets: key, value and version, by key. */
function facts(body: unknown): string[] {
  const b = body as { secrets?: Listed[]; secret?: Listed };
  const list = b.secrets ?? (b.secret ? [b.secret] : []);
  return list
    .filter((s) => /^(BATCH_|V4_)/.test(s.secretKey))
    .map((s) => `${s.secretKey}=${s.secretValue}@${s.version}`)
    .sort();
}

/** Zod 3 issues (the recording) carry `received`, zod 4 ones do not; the envelope is compared without it. */
const issuesWithout = (body: unknown) => {
  const { message, reqId: _reqId, ...rest } = body as { message: Record<string, unknown>[]; reqId?: string };
  return { ...rest, message: message.map(({ received: _received, ...issue }) => issue) };
};

/**
 * Replays the recorded requests in order against a fresh project: each answer has the recorded
 * status, the recorded shape, the same messages, and the same keys, values and versions, so the
 * state after each failed batch is the recorded one (all or nothing).
 */
describeEachDatabase("batch raw secrets: the recorded server's answers, replayed", (kind) => {
  let svc: TestService;
  let projectId: string;
  beforeAll(async () => {
    svc = await startService({ kind });
    projectId = (await createProject(svc)).id;
  });
  afterAll(async () => svc?.close());

  const replay = (r: Recording) => {
    const ours = (text: string) => text.split(recordedProject).join(projectId);
    const query = (r.request as { query?: Record<string, string> | null }).query;
    const url = r.path + (query ? `?${ours(new URLSearchParams(query).toString())}` : "");
    const body = r.request.body === undefined ? undefined : JSON.parse(ours(JSON.stringify(r.request.body)));
    return svc.call(r.method, url, body === undefined ? {} : { body });
  };

  it.each(recordings.map((r) => [r.file, r] as const))("%s", async (_file, r) => {
    const answer = await replay(r);
    expect(answer.status, JSON.stringify(answer.body)).toBe(r.status);
    if (r.status === 422) {
      // The envelope and what each issue says are Infisical's; zod 4 issues name the kind of input
      // `origin` where zod 3 ones said `type` (and `exact`), so those fields are left out.
      const pick = (body: unknown) => {
        const { message, ...rest } = issuesWithout(body);
        return {
          ...rest,
          message: message.map(({ code, path, minimum, inclusive }) => ({ code, path, minimum, inclusive })),
        };
      };
      expect(pick(answer.body)).toEqual(pick(r.body));
      return;
    }
    const [a, b] = shapesSideBySide(answer.body, r.body);
    expect(a).toEqual(b);
    expect(shapeOf(answer.body)).toEqual(shapeOf(r.body));
    if (r.status >= 400) {
      const { reqId: _ours, ...mine } = answer.body as Record<string, unknown>;
      const { reqId: _theirs, ...theirs } = r.body as Record<string, unknown>;
      expect(mine).toEqual(theirs);
      return;
    }
    expect(facts(answer.body)).toEqual(facts(r.body));
  });
});
