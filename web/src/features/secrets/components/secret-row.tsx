import { Copy, Eye, EyeOff, PanelRightOpen, Pencil, Trash2 } from "lucide-react";
import { memo, type MouseEvent, useRef } from "react";
import { PermittedButton } from "@/components/permissions/permitted-button";
import { Badge } from "@/components/ui/badge";
import { errorSummary } from "@/lib/describe-error";
import { toast } from "@/lib/toast";
import { type ListedSecret, type SecretFolder, secretsApi } from "../api";
import { copyValueToClipboard } from "../copy-value";
import { TagDot } from "./tag-dot";
import type { SecretGuards } from "./use-secret-guards";
import { HiddenValue, MaskedValue, RevealedValue, ValueEditor } from "./value-cell";

interface SecretRowProps {
  rowIndex: number;
  secret: ListedSecret;
  folder: SecretFolder;
  guards: SecretGuards;
  revealed: boolean;
  editing: boolean;
  onToggleReveal: (secretKey: string) => void;
  onEdit: (secretKey: string | undefined) => void;
  onOpen: (secretKey: string) => void;
  onDelete: (secretKey: string) => void;
}

const iconButton = "size-7 text-muted-foreground hover:text-foreground";
const MAX_TAGS = 2;

/** A value the server withheld on read: the caller may see the secret but not its value. */
class HiddenValueError extends Error {
  constructor() {
    super("Your permissions let you see this secret but not read its value.");
  }
}

/** Clicks on the row open the secret, except clicks on its own controls. */
function isControl(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest("button, a, input, textarea, select, label") !== null;
}

export const SecretRow = memo(function SecretRow(props: SecretRowProps) {
  const { rowIndex, secret, folder, guards, revealed, editing } = props;
  const { onToggleReveal, onEdit, onOpen, onDelete } = props;
  const key = secret.secretKey;
  const editButton = useRef<HTMLButtonElement>(null);
  const readDenied = guards.readValue ? `The value is hidden. ${guards.readValue}` : undefined;

  async function copy() {
    try {
      await copyValueToClipboard(async () => {
        const read = await secretsApi.reveal(folder, key);
        if (read.secretValueHidden) throw new HiddenValueError();
        return read.secretValue;
      });
      toast.success("Value copied", key);
    } catch (error) {
      toast.error("Could not copy the value", errorSummary(error, "The value could not be read"));
    }
  }

  function stopEditing() {
    onEdit(undefined);
    // Back to the control that started the edit, for keyboard users.
    requestAnimationFrame(() => editButton.current?.focus());
  }

  const tags = secret.tags ?? [];
  return (
    <tr
      aria-rowindex={rowIndex}
      className="group h-12 cursor-pointer transition-colors hover:bg-hover/50"
      onClick={(event: MouseEvent) => {
        if (!editing && !isControl(event.target)) onOpen(key);
      }}
    >
      <td className="border-b border-border px-4">
        <div className="min-w-0">
          <div className="truncate font-mono text-[13px] font-medium" title={key}>
            {key}
          </div>
          {secret.secretComment ? (
            <div className="truncate text-xs text-muted-foreground" title={secret.secretComment}>
              {secret.secretComment}
            </div>
          ) : null}
        </div>
      </td>
      <td className="border-b border-border px-3">
        {editing ? (
          <ValueEditor key={key} folder={folder} secretKey={key} canRead={!guards.readValue} onDone={stopEditing} />
        ) : readDenied && !guards.checking ? (
          <HiddenValue />
        ) : revealed ? (
          <RevealedValue key={key} folder={folder} secretKey={key} />
        ) : (
          <MaskedValue />
        )}
      </td>
      <td className="border-b border-border px-3">
        {tags.length > 0 ? (
          <span className="flex min-w-0 items-center gap-1 overflow-hidden">
            {tags.slice(0, MAX_TAGS).map((tag) => (
              <Badge key={tag.id} tone="outline" className="max-w-40 min-w-0">
                <TagDot color={tag.color} />
                <span className="truncate">{tag.slug}</span>
              </Badge>
            ))}
            {tags.length > MAX_TAGS ? (
              <Badge tone="outline" title={tags.map((tag) => tag.slug).join(", ")}>
                +{tags.length - MAX_TAGS}
              </Badge>
            ) : null}
          </span>
        ) : null}
      </td>
      <td className="border-b border-border px-3">
        <span className="flex items-center justify-end gap-0.5">
          <PermittedButton
            variant="ghost"
            size="icon-sm"
            className={iconButton}
            aria-label={`${revealed ? "Hide" : "Reveal"} value of ${key}`}
            aria-pressed={readDenied ? undefined : revealed}
            title={readDenied ? undefined : revealed ? "Hide value" : "Reveal value"}
            deniedReason={readDenied}
            onClick={() => onToggleReveal(key)}
          >
            {revealed ? <EyeOff aria-hidden /> : <Eye aria-hidden />}
          </PermittedButton>
          <PermittedButton
            variant="ghost"
            size="icon-sm"
            className={iconButton}
            aria-label={`Copy value of ${key}`}
            title={readDenied ? undefined : "Copy value"}
            deniedReason={readDenied}
            onClick={() => void copy()}
          >
            <Copy aria-hidden />
          </PermittedButton>
          <PermittedButton
            ref={editButton}
            variant="ghost"
            size="icon-sm"
            className={iconButton}
            aria-label={`Edit value of ${key}`}
            title={guards.edit ? undefined : "Edit value"}
            deniedReason={guards.edit}
            onClick={() => onEdit(key)}
          >
            <Pencil aria-hidden />
          </PermittedButton>
          <PermittedButton
            variant="ghost"
            size="icon-sm"
            className={iconButton}
            aria-label={`Open ${key}`}
            title="Open details"
            onClick={() => onOpen(key)}
          >
            <PanelRightOpen aria-hidden />
          </PermittedButton>
          <PermittedButton
            variant="ghost"
            size="icon-sm"
            className={`${iconButton} hover:text-destructive-subtle-foreground`}
            aria-label={`Delete ${key}`}
            title={guards.delete ? undefined : "Delete"}
            deniedReason={guards.delete}
            onClick={() => onDelete(key)}
          >
            <Trash2 aria-hidden />
          </PermittedButton>
        </span>
      </td>
    </tr>
  );
});
