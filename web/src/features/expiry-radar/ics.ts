import ical from "ical-generator";
import { type Ending, kindLabels } from "./endings";

const causeNotes: Record<Ending["cause"], string> = {
  ttl: "It ends when its time to live runs out.",
  "max-ttl": "It reaches its max TTL: renewing cannot keep it past this time.",
  temporary: "Temporary access ends.",
};

/** "Temporary privilege db-read ends (ci-bot, project payments)". */
export function endingSummary(ending: Ending): string {
  const where = ending.project ? `, project ${ending.project.name}` : "";
  return `${kindLabels[ending.kind]} ${ending.name} ends (${ending.holder.name}${where})`;
}

/**
 * An RFC 5545 calendar with one VEVENT per ending: the UID is the ending's stable key, so a
 * re-import updates the same events; DTSTART is in UTC. Names only, never a value.
 */
export function endingsCalendar(endings: Ending[], now: Date = new Date()): string {
  const calendar = ical({ name: "Keyhold expiry radar", prodId: { company: "Keyhold", product: "Expiry radar" } });
  for (const ending of endings) {
    calendar.createEvent({
      id: `${ending.key}@keyhold`,
      start: new Date(ending.endsAt),
      stamp: now,
      summary: endingSummary(ending),
      description: causeNotes[ending.cause],
    });
  }
  return calendar.toString();
}
