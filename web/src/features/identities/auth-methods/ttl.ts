/**
 * Token lifetimes as people write them ("30d", "12h", "90m", "1d12h", plain seconds) and as the
 * wire carries them (whole seconds). 0 means the token has no expiry.
 */
const UNIT_SECONDS = { w: 604_800, d: 86_400, h: 3_600, m: 60, s: 1 } as const;
type Unit = keyof typeof UNIT_SECONDS;

const UNIT_NAMES: Record<Unit, string> = { w: "week", d: "day", h: "hour", m: "minute", s: "second" };
const PART = /(\d+)\s*([wdhms])/gy;

export type TtlParse = { ok: true; seconds: number } | { ok: false; message: string };

export const TTL_FORMAT_HINT = "Use units like 30d, 12h, 90m, or plain seconds";

/** Reads "30d", "12h", "90m", "45s", "1w", "1d 12h" or "3600" (seconds). */
export function parseTtl(text: string): TtlParse {
  const input = text.trim().toLowerCase();
  if (input === "") return { ok: false, message: "Enter a duration" };
  if (/^\d+$/.test(input)) return { ok: true, seconds: Number(input) };
  let seconds = 0;
  let consumed = 0;
  PART.lastIndex = 0;
  for (let match = PART.exec(input); match; match = PART.exec(input)) {
    seconds += Number(match[1]) * UNIT_SECONDS[match[2] as Unit];
    consumed = PART.lastIndex;
    while (input[consumed] === " ") consumed += 1;
    PART.lastIndex = consumed;
  }
  if (consumed !== input.length || consumed === 0) return { ok: false, message: TTL_FORMAT_HINT };
  return { ok: true, seconds };
}

/** The shortest exact way to write a lifetime: 2592000 → "30d", 5400 → "90m", 45 → "45". */
export function formatTtl(seconds: number): string {
  if (seconds === 0) return "0";
  for (const unit of ["d", "h", "m"] as const) {
    if (seconds % UNIT_SECONDS[unit] === 0) return `${seconds / UNIT_SECONDS[unit]}${unit}`;
  }
  return String(seconds);
}

/** In words, at most two units: "30 days", "1 day 12 hours", "90 minutes" → "1 hour 30 minutes". */
export function describeTtl(seconds: number): string {
  if (seconds === 0) return "No expiry";
  const parts: string[] = [];
  let rest = seconds;
  for (const unit of ["d", "h", "m", "s"] as const) {
    const count = Math.floor(rest / UNIT_SECONDS[unit]);
    rest -= count * UNIT_SECONDS[unit];
    if (count > 0) parts.push(`${count} ${UNIT_NAMES[unit]}${count === 1 ? "" : "s"}`);
  }
  return parts.slice(0, 2).join(" ");
}

const expiryFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** What a TTL field shows under its input: the duration and when a token issued now would expire. */
export function ttlHint(text: string, now: Date = new Date()): { ok: boolean; text: string } {
  const parsed = parseTtl(text);
  if (!parsed.ok) return { ok: false, text: parsed.message };
  if (parsed.seconds === 0) return { ok: true, text: "No expiry: tokens stay valid until revoked" };
  const expires = new Date(now.getTime() + parsed.seconds * 1000);
  return {
    ok: true,
    text: `${describeTtl(parsed.seconds)}: a token issued now expires ${expiryFormat.format(expires)}`,
  };
}
