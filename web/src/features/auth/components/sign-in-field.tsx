import { Eye, EyeOff } from "lucide-react";
import { useState } from "react";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { cn } from "@/lib/cn";

interface SignInFieldProps {
  id: string;
  name: string;
  label: string;
  error?: string;
  help?: string;
  disabled: boolean;
  /** Masked until revealed, with a button that names what it reveals ("token", "secret"). */
  secret?: string;
}

/** One uncontrolled field of the sign-in form: the page reads the values from the form when it is sent. */
export function SignInField({ id, name, label, error, help, disabled, secret }: SignInFieldProps) {
  const [revealed, setRevealed] = useState(false);
  const describedBy = [error ? `${id}-error` : "", help ? `${id}-help` : ""].filter(Boolean).join(" ");
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <div className="relative">
        <Input
          id={id}
          name={name}
          type={secret && !revealed ? "password" : "text"}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          className={cn("font-mono text-[13px]", secret && "pr-10")}
          disabled={disabled}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy || undefined}
        />
        {secret ? (
          <button
            type="button"
            onClick={() => setRevealed((value) => !value)}
            aria-label={`${revealed ? "Hide" : "Show"} ${secret}`}
            aria-pressed={revealed}
            aria-controls={id}
            className="absolute top-1/2 right-1 flex size-7 -translate-y-1/2 items-center justify-center rounded-md text-muted-foreground outline-none hover:bg-hover hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
          >
            {revealed ? <EyeOff aria-hidden className="size-4" /> : <Eye aria-hidden className="size-4" />}
          </button>
        ) : null}
      </div>
      {error ? (
        <p id={`${id}-error`} className="text-[13px] text-destructive-subtle-foreground">
          {error}
        </p>
      ) : null}
      {help ? (
        <p id={`${id}-help`} className="text-[13px] text-muted-foreground">
          {help}
        </p>
      ) : null}
    </div>
  );
}
