import { type ReactNode, Suspense, useEffect, useState } from "react";

/**
 * Shows `fallback` in the first paint and mounts `children` (lazily loaded code) just after it,
 * so downloading that code does not compete with what the first paint needs.
 */
export function AfterFirstPaint({ fallback, children }: { fallback: ReactNode; children: ReactNode }) {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setPainted(true));
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  return painted ? <Suspense fallback={fallback}>{children}</Suspense> : fallback;
}
