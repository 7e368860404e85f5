/** A tag's colour as a small dot; colours are the project's own (any CSS colour string). */
export function TagDot({ color }: { color: string | null | undefined }) {
  return (
    <span
      aria-hidden
      className="inline-block size-2 shrink-0 rounded-full bg-muted-foreground/50"
      style={color ? { backgroundColor: color } : undefined}
    />
  );
}
