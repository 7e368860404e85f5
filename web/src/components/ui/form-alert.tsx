import { CircleAlert } from "lucide-react";
import { useEffect, useRef } from "react";

/**
 * A form-level error (one no field can take), announced when it appears and brought into view,
 * so a scrolled form never hides it. Every form puts it in one place: at its top, above the fields.
 */
function FormAlert({ message }: { message: string | undefined }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (message) ref.current?.scrollIntoView?.({ block: "nearest" });
  }, [message]);
  if (!message) return null;
  return (
    <div
      ref={ref}
      role="alert"
      className="flex items-start gap-2 rounded-md border border-destructive/40 bg-destructive-subtle px-3 py-2 text-[13px] text-destructive-subtle-foreground"
    >
      <CircleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
      <p>{message}</p>
    </div>
  );
}

export { FormAlert };
