import { diffLines, diffWordsWithSpace } from "diff";

export type DiffKind = "same" | "removed" | "added";

export interface DiffSegment {
  text: string;
  /** Part of what changed within the line (only on removed and added lines that pair up). */
  changed: boolean;
}

export interface DiffLine {
  kind: DiffKind;
  /** Line number in the older text (same and removed lines). */
  before?: number;
  /** Line number in the newer text (same and added lines). */
  after?: number;
  segments: DiffSegment[];
}

export interface TextDiff {
  lines: DiffLine[];
  added: number;
  removed: number;
  /** One text ends with a newline and the other does not (the lines themselves ignore it). */
  newlineAtEndChanged: boolean;
}

function splitLines(text: string): string[] {
  const lines = text.split("\n");
  // The newline that ends the last line does not start another one.
  if (lines.length > 1 && lines.at(-1) === "") lines.pop();
  return lines;
}

/** Words that changed between two lines that replace each other, on each side. */
function pairSegments(before: string, after: string): [DiffSegment[], DiffSegment[]] {
  const older: DiffSegment[] = [];
  const newer: DiffSegment[] = [];
  for (const part of diffWordsWithSpace(before, after)) {
    if (!part.added) older.push({ text: part.value, changed: part.removed });
    if (!part.removed) newer.push({ text: part.value, changed: part.added });
  }
  return [older, newer];
}

/**
 * A line-by-line diff of two texts (jsdiff), numbered on both sides. Where removed lines are
 * followed by as many added ones, each pair also marks the words that changed.
 */
export function textDiff(before: string, after: string): TextDiff {
  const lines: DiffLine[] = [];
  let oldLine = 1;
  let newLine = 1;
  let added = 0;
  let removed = 0;
  const changes = diffLines(before, after, { ignoreNewlineAtEof: true });
  for (let i = 0; i < changes.length; i++) {
    const change = changes[i];
    if (!change) continue;
    const next = changes[i + 1];
    const texts = splitLines(change.value);
    if (change.removed && next?.added && splitLines(next.value).length === texts.length) {
      const replacements = splitLines(next.value);
      const pairs = texts.map((text, j) => pairSegments(text, replacements[j] ?? ""));
      for (const [older] of pairs) lines.push({ kind: "removed", before: oldLine++, segments: older });
      for (const [, newer] of pairs) lines.push({ kind: "added", after: newLine++, segments: newer });
      removed += texts.length;
      added += texts.length;
      i++;
      continue;
    }
    for (const text of texts) {
      const segments = [{ text, changed: false }];
      if (change.removed) {
        lines.push({ kind: "removed", before: oldLine++, segments });
        removed++;
      } else if (change.added) {
        lines.push({ kind: "added", after: newLine++, segments });
        added++;
      } else {
        lines.push({ kind: "same", before: oldLine++, after: newLine++, segments });
      }
    }
  }
  return { lines, added, removed, newlineAtEndChanged: before.endsWith("\n") !== after.endsWith("\n") };
}
