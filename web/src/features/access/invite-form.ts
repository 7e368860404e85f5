import { z } from "zod";
import type { InviteUsersBody } from "./api";

/** E-mail addresses as people paste them: separated by commas, semicolons, spaces or new lines. */
export function splitEmails(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,;]+/)
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
}

const Email = z.email();

export const InviteFormSchema = z
  .object({ emails: z.string(), roleSlug: z.string().min(1, "Choose a role") })
  .superRefine((values, ctx) => {
    const emails = splitEmails(values.emails);
    if (emails.length === 0) {
      ctx.addIssue({ code: "custom", path: ["emails"], message: "Enter at least one e-mail address" });
      return;
    }
    const bad = emails.filter((e) => !Email.safeParse(e).success);
    if (bad.length > 0) {
      ctx.addIssue({
        code: "custom",
        path: ["emails"],
        message: `Not ${bad.length === 1 ? "an e-mail address" : "e-mail addresses"}: ${bad.join(", ")}`,
      });
    }
  });
export type InviteForm = z.infer<typeof InviteFormSchema>;

export function toInviteBody(values: InviteForm): InviteUsersBody {
  return { emails: splitEmails(values.emails), usernames: [], roleSlugs: [values.roleSlug] };
}
