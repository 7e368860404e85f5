import { X } from "lucide-react";
import { type KeyboardEvent, useState } from "react";
import { cn } from "@/lib/cn";

interface ValuesInputProps {
  id: string;
  /** Names the list, e.g. "Secret tags values". */
  label: string;
  value: string[];
  onChange: (value: string[]) => void;
  disabled?: boolean;
  invalid?: boolean;
  describedBy?: string | undefined;
  placeholder?: string;
  className?: string;
}

/**
 * A list of values typed one at a time: Enter or a comma adds what was typed, Backspace in the
 * empty box removes the last value, and each value has its own remove button. What is typed but
 * not yet added stays local; leaving the box adds it.
 */
export function ValuesInput({
  id,
  label,
  value,
  onChange,
  disabled,
  invalid,
  describedBy,
  placeholder,
  className,
}: ValuesInputProps) {
  const [draft, setDraft] = useState("");

  function commit(text = draft) {
    const added = text
      .split(",")
      .map((part) => part.trim())
      .filter((part) => part !== "" && !value.includes(part));
    if (added.length > 0) onChange([...value, ...new Set(added)]);
    setDraft("");
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "Enter" || event.key === ",") {
      event.preventDefault();
      commit();
    } else if (event.key === "Backspace" && draft === "" && value.length > 0) {
      onChange(value.slice(0, -1));
    }
  }

  return (
    <div
      className={cn(
        "flex min-h-8 w-full flex-wrap items-center gap-1 rounded-md border border-input bg-card px-1.5 py-1 shadow-xs",
        "focus-within:border-ring focus-within:ring-3 focus-within:ring-ring/25",
        invalid && "border-destructive",
        disabled && "opacity-60",
        className,
      )}
    >
      {/* biome-ignore lint/a11y/useSemanticElements: a list of removable values, named for screen readers */}
      <ul className="contents" aria-label={`${label}, added so far`}>
        {value.map((item) => (
          <li
            key={item}
            className="inline-flex h-6 items-center gap-1 rounded border border-border bg-muted pl-1.5 font-mono text-xs"
          >
            {item}
            {disabled ? null : (
              <button
                type="button"
                className="rounded-sm p-0.5 text-muted-foreground outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
                aria-label={`Remove ${item}`}
                onClick={() => onChange(value.filter((v) => v !== item))}
              >
                <X aria-hidden className="size-3" />
              </button>
            )}
          </li>
        ))}
      </ul>
      {disabled ? null : (
        <input
          id={id}
          value={draft}
          onChange={(event) => {
            const text = event.target.value;
            if (text.includes(",")) commit(text);
            else setDraft(text);
          }}
          onKeyDown={onKeyDown}
          onBlur={() => commit()}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          placeholder={value.length === 0 ? placeholder : "Add another…"}
          className="h-6 min-w-24 flex-1 bg-transparent px-1 font-mono text-xs outline-none placeholder:font-sans placeholder:text-muted-foreground"
          autoComplete="off"
          spellCheck={false}
        />
      )}
    </div>
  );
}
