import { CircleAlert } from "lucide-react";

/** A form-level error, announced when it appears. */
function FormAlert({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <div
      role="alert"
      className="flex items-start gap-2 rounded-md border border-destructive/40 bg-destructive-subtle px-3 py-2 text-[13px] text-destructive-subtle-foreground"
    >
      <CircleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
      <p>{message}</p>
    </div>
  );
}

export { FormAlert };
