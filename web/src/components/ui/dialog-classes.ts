import { cn } from "@/lib/cn";

export const overlayClasses = "fixed inset-0 z-50 bg-overlay data-[state=open]:animate-fade-in";
export const panelClasses = cn(
  "fixed top-1/2 left-1/2 z-50 grid w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 gap-5",
  "rounded-xl border border-border bg-card p-6 text-foreground shadow-xl outline-none data-[state=open]:animate-pop-in",
);
