import { cn } from "@/lib/cn";

/** The Keyhold mark: a key in a rounded square, drawn in the accent colour. */
export function BrandMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden className={cn("size-7 shrink-0", className)}>
      <rect width="32" height="32" rx="8" className="fill-accent" />
      <circle cx="13" cy="14" r="5" fill="none" stroke="white" strokeWidth="2.5" />
      <path d="M16.5 17.5 24 25M21 22l2.5-2.5M23.5 24.5l2-2" stroke="white" strokeWidth="2.5" strokeLinecap="round" />
    </svg>
  );
}
