import type { SecretTagRef } from "@keyhold/contract";
import { useQuery } from "@tanstack/react-query";
import { Plus } from "lucide-react";
import { useId, useState } from "react";
import { PermittedButton } from "@/components/permissions/permitted-button";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { useProjectAbility } from "@/hooks/use-project-ability";
import { isApiError } from "@/lib/api-error";
import { cn } from "@/lib/cn";
import { errorSummary } from "@/lib/describe-error";
import { TagDot } from "../components/tag-dot";
import { secretQueries } from "../queries";
import { useCreateTag } from "./mutations";

interface TagPickerProps {
  projectId: string;
  value: string[];
  onChange: (tagIds: string[]) => void;
  /** The secret's tags as saved, shown even when the project's list cannot be read. */
  savedTags: readonly SecretTagRef[];
}

const NEW_TAG_COLOR = "#6366f1";
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The project's tags as checkboxes, and a box to create a new one (then chosen). */
export function TagPicker({ projectId, value, onChange, savedTags }: TagPickerProps) {
  const tags = useQuery(secretQueries.tags(projectId));
  const ability = useProjectAbility(projectId);
  const createTag = useCreateTag(projectId);
  const [draft, setDraft] = useState("");
  const [draftError, setDraftError] = useState<string>();
  const inputId = useId();

  const known = tags.data ?? [];
  const choices = [
    ...known.map(({ id, slug, color }) => ({ id, slug, color })),
    ...savedTags.filter((saved) => !known.some((tag) => tag.id === saved.id)),
  ];

  function toggle(tagId: string, checked: boolean) {
    onChange(checked ? [...value, tagId] : value.filter((id) => id !== tagId));
  }

  async function create() {
    const slug = draft.trim().toLowerCase();
    if (!SLUG.test(slug)) {
      setDraftError("Lowercase letters, digits and single hyphens");
      return;
    }
    const existing = choices.find((tag) => tag.slug === slug);
    if (existing) {
      if (!value.includes(existing.id)) onChange([...value, existing.id]);
      setDraft("");
      return;
    }
    try {
      const tag = await createTag.mutateAsync({ slug, color: NEW_TAG_COLOR });
      onChange([...value, tag.id]);
      setDraft("");
      setDraftError(undefined);
    } catch (error) {
      setDraftError(errorSummary(error, "Could not create the tag"));
    }
  }

  return (
    <fieldset className="grid gap-2">
      <legend className="mb-2 text-[13px] font-medium">Tags</legend>
      {choices.length > 0 ? (
        <div className="flex flex-wrap gap-1.5">
          {choices.map((tag) => (
            <label
              key={tag.id}
              className={cn(
                "inline-flex h-7 cursor-pointer select-none items-center gap-1.5 rounded-md border border-border bg-card px-2 font-mono text-xs",
                "transition-colors hover:bg-hover has-focus-visible:ring-2 has-focus-visible:ring-ring",
                "has-checked:border-accent/40 has-checked:bg-accent-subtle has-checked:text-accent-subtle-foreground",
              )}
            >
              <input
                type="checkbox"
                className="size-3.5 accent-accent outline-none"
                checked={value.includes(tag.id)}
                onChange={(event) => toggle(tag.id, event.target.checked)}
              />
              <TagDot color={tag.color} />
              {tag.slug}
            </label>
          ))}
        </div>
      ) : tags.isPending ? (
        <p className="flex items-center gap-2 text-[13px] text-muted-foreground">
          <Spinner /> Loading the project's tags…
        </p>
      ) : tags.isSuccess ? (
        <p className="text-[13px] text-muted-foreground">This project has no tags yet. Create one below.</p>
      ) : null}
      {tags.isError ? (
        <p className="text-[13px] text-muted-foreground">
          {isApiError(tags.error, 404)
            ? "This server does not list the project's tags; the secret's own are shown."
            : `The project's tags could not be listed: ${errorSummary(tags.error, "Could not read the tags")}`}
        </p>
      ) : null}
      <div className="flex items-start gap-2">
        <div className="grid flex-1 gap-1">
          <label htmlFor={inputId} className="sr-only">
            New tag
          </label>
          <Input
            id={inputId}
            value={draft}
            onChange={(event) => {
              setDraft(event.target.value);
              setDraftError(undefined);
            }}
            onKeyDown={(event) => {
              if (event.key === "Enter") {
                event.preventDefault();
                void create();
              }
            }}
            placeholder="New tag name"
            autoComplete="off"
            spellCheck={false}
            aria-invalid={draftError ? true : undefined}
            aria-describedby={draftError ? `${inputId}-error` : undefined}
            className="h-8 font-mono text-[13px]"
          />
          {draftError ? (
            <p id={`${inputId}-error`} className="text-[13px] text-destructive-subtle-foreground">
              {draftError}
            </p>
          ) : null}
        </div>
        <PermittedButton
          size="sm"
          deniedReason={ability.reason("create", "tags")}
          disabled={draft.trim() === "" || createTag.isPending}
          onClick={() => void create()}
        >
          {createTag.isPending ? <Spinner /> : <Plus aria-hidden />}
          Create tag
        </PermittedButton>
      </div>
    </fieldset>
  );
}
