import { type ComponentProps, useId } from "react";
import { Button } from "@/components/ui/button";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";

type PermittedButtonProps = ComponentProps<typeof Button> & {
  /** Why the signed-in identity may not use this control (from `useProjectAbility().reason`); enabled when undefined. */
  deniedReason?: string | undefined;
};

/**
 * A button that, when not permitted, stays focusable but inert and says why: in a tooltip on
 * hover or focus, and as its accessible description. (A `disabled` button could not show a
 * tooltip, and would vanish from the keyboard order.)
 */
export function PermittedButton({ deniedReason, onClick, ...props }: PermittedButtonProps) {
  const reasonId = useId();
  if (!deniedReason) return <Button onClick={onClick} {...props} />;
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <Button
          {...props}
          aria-disabled="true"
          aria-describedby={reasonId}
          className={`${props.className ?? ""} cursor-not-allowed`}
          onClick={(event) => event.preventDefault()}
        />
      </TooltipTrigger>
      <TooltipContent className="max-w-xs">{deniedReason}</TooltipContent>
      <span id={reasonId} className="sr-only">
        {deniedReason}
      </span>
    </Tooltip>
  );
}
