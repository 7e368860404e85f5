import { useQuery } from "@tanstack/react-query";
import { FolderClosed, KeyRound, Layers } from "lucide-react";
import { type ComponentProps, type KeyboardEvent, type RefCallback, useId, useMemo, useRef, useState } from "react";
import { cn } from "@/lib/cn";
import type { SecretFolder } from "../api";
import { secretQueries } from "../queries";
import {
  applySuggestion,
  queryFolder,
  type ReferenceQuery,
  referenceQueryAt,
  type Suggestion,
  suggest,
} from "../references";

type FieldProps = Omit<ComponentProps<"input"> & ComponentProps<"textarea">, "value" | "onChange" | "ref" | "onBlur">;

interface ReferenceInputProps extends FieldProps {
  folder: SecretFolder;
  value: string;
  onValueChange: (value: string) => void;
  /** A textarea (the drawer's multiline value) rather than a one-line input. */
  multiline?: boolean;
  /** The secret whose value this is: it is not offered as a reference to itself. */
  selfKey?: string | undefined;
  /** A callback ref (react-hook-form's `field.ref`), for focusing the field on an error. */
  fieldRef?: RefCallback<HTMLInputElement & HTMLTextAreaElement>;
  onBlur?: () => void;
}

const kindIcon = { key: KeyRound, environment: Layers, folder: FolderClosed } as const;

/**
 * A value field that suggests references while one is typed: after `${`, the folder's keys and
 * the project's environments; after `${env.`, that folder's subfolders and keys (read without
 * values, as the table reads them). Arrow keys move through the suggestions, Enter or Tab takes
 * one, Escape closes them (a second Escape reaches the field's own handler). The field keeps its
 * textbox role (tests, screen readers and forms find it as before); the list is announced through
 * `aria-controls` and `aria-activedescendant`.
 */
export function ReferenceInput({
  folder,
  value,
  onValueChange,
  multiline = false,
  fieldRef,
  selfKey,
  onKeyDown,
  onBlur,
  className,
  ...props
}: ReferenceInputProps) {
  const listId = useId();
  const element = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const [cursor, setCursor] = useState<number>();
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState<number>();
  const query = cursor === undefined ? undefined : referenceQueryAt(value, cursor);
  const open = query !== undefined && dismissed !== query.start;
  const suggestions = useSuggestions(folder, open ? query : undefined, selfKey);
  const shown = open && suggestions.length > 0;
  const current = Math.min(active, suggestions.length - 1);

  function setRefs(node: (HTMLInputElement & HTMLTextAreaElement) | null) {
    element.current = node;
    fieldRef?.(node);
  }

  function take(suggestion: Suggestion) {
    if (!query || cursor === undefined) return;
    const next = applySuggestion(value, cursor, query, suggestion);
    onValueChange(next.value);
    setCursor(next.cursor);
    setActive(0);
    requestAnimationFrame(() => element.current?.setSelectionRange(next.cursor, next.cursor));
  }

  function handleKeyDown(event: KeyboardEvent<HTMLInputElement & HTMLTextAreaElement>) {
    if (shown) {
      const item = suggestions[current];
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        const step = event.key === "ArrowDown" ? 1 : -1;
        setActive((current + step + suggestions.length) % suggestions.length);
        return;
      }
      if ((event.key === "Enter" || event.key === "Tab") && item) {
        event.preventDefault();
        take(item);
        return;
      }
      if (event.key === "Escape" && query) {
        event.preventDefault();
        event.stopPropagation();
        setDismissed(query.start);
        return;
      }
    }
    onKeyDown?.(event);
  }

  const Field = multiline ? "textarea" : "input";
  return (
    <span className="relative block min-w-0 flex-1">
      <Field
        {...props}
        ref={setRefs}
        aria-autocomplete="list"
        aria-controls={shown ? listId : undefined}
        aria-activedescendant={shown ? `${listId}-${current}` : undefined}
        value={value}
        onChange={(event) => {
          onValueChange(event.target.value);
          setCursor(event.target.selectionStart ?? undefined);
          setActive(0);
        }}
        onSelect={(event) => setCursor(event.currentTarget.selectionStart ?? undefined)}
        onBlur={() => {
          setCursor(undefined);
          onBlur?.();
        }}
        onKeyDown={handleKeyDown}
        autoComplete="off"
        spellCheck={false}
        className={className}
      />
      {shown ? (
        <ul
          id={listId}
          role="listbox"
          aria-label="References"
          className="absolute top-full left-0 z-30 mt-1 max-h-64 w-full min-w-56 overflow-auto rounded-md border border-border bg-card py-1 shadow-lg"
        >
          {suggestions.map((item, index) => {
            const Icon = kindIcon[item.kind];
            return (
              <li
                key={`${item.kind}:${item.label}`}
                id={`${listId}-${index}`}
                role="option"
                aria-selected={index === current}
                // Keeps the focus in the field.
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => take(item)}
                className={cn(
                  "flex h-8 cursor-pointer items-center gap-2 px-2.5 font-mono text-[13px]",
                  index === current ? "bg-hover text-foreground" : "text-muted-foreground",
                )}
              >
                <Icon aria-hidden className="size-3.5 shrink-0" />
                <span className="truncate">{item.label}</span>
                <span className="ml-auto font-sans text-xs text-muted-foreground">
                  {item.kind === "key" ? "key" : item.kind === "environment" ? "environment" : "folder"}
                </span>
              </li>
            );
          })}
        </ul>
      ) : null}
    </span>
  );
}

/** The names to offer for a reference being typed, read from the cache or the server (never values). */
function useSuggestions(folder: SecretFolder, query: ReferenceQuery | undefined, selfKey?: string): Suggestion[] {
  const target = query ? queryFolder(query) : undefined;
  const place = target ? { projectId: folder.projectId, ...target } : folder;
  const local = useQuery({ ...secretQueries.list(folder), enabled: query !== undefined });
  const environments = useQuery({ ...secretQueries.environments(folder.projectId), enabled: query !== undefined });
  const keys = useQuery({ ...secretQueries.list(place), enabled: target !== undefined, retry: false });
  const folders = useQuery({ ...secretQueries.folders(place), enabled: target !== undefined, retry: false });
  return useMemo(() => {
    if (!query) return [];
    return suggest(query, {
      localKeys: (local.data?.secrets ?? []).map((secret) => secret.secretKey).filter((key) => key !== selfKey),
      environments: environments.data?.map((env) => env.slug) ?? [],
      folder:
        target && (keys.data || folders.data)
          ? {
              keys: keys.data?.secrets.map((secret) => secret.secretKey) ?? [],
              folders: folders.data?.map((entry) => entry.name) ?? [],
            }
          : undefined,
    });
  }, [query, target, local.data, environments.data, keys.data, folders.data, selfKey]);
}
