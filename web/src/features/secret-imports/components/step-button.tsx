import { type ComponentProps, useId } from "react";
import { Button } from "@/components/ui/button";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import { cn } from "@/lib/cn";

type StepButtonProps = Omit<ComponentProps<typeof Button>, "variant" | "size"> & {
  /** Why the button does nothing now (no permission, or already at that end); enabled when undefined. */
  inertReason: string | undefined;
};

/**
 * A move-up or move-down button. Its element stays the same whether it may be used or not, so
 * the focus stays on it when a move takes its row to the end of the list and the button turns
 * inert; an inert one stays focusable and says why, in a tooltip and as its description.
 */
export function StepButton({ inertReason, onClick, className, ...props }: StepButtonProps) {
  const reasonId = useId();
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <Button
          {...props}
          variant="ghost"
          size="icon-sm"
          aria-disabled={inertReason ? "true" : undefined}
          aria-describedby={inertReason ? reasonId : undefined}
          className={cn(className, inertReason && "cursor-not-allowed")}
          onClick={inertReason ? (event) => event.preventDefault() : onClick}
        />
      </TooltipTrigger>
      {inertReason ? <TooltipContent className="max-w-xs">{inertReason}</TooltipContent> : null}
      <span id={reasonId} className="sr-only">
        {inertReason}
      </span>
    </Tooltip>
  );
}
