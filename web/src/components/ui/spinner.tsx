import { LoaderCircle } from "lucide-react";
import { cn } from "@/lib/cn";

function Spinner({ className }: { className?: string }) {
  return <LoaderCircle aria-hidden className={cn("size-4 animate-spin", className)} />;
}

export { Spinner };
