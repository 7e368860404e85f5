import { type RefObject, useLayoutEffect, useState } from "react";

/**
 * The element's width inside its borders and scrollbar, followed as it changes; undefined until
 * measured (the first measure happens before the browser paints).
 */
export function useClientWidth(ref: RefObject<HTMLElement | null>): number | undefined {
  const [width, setWidth] = useState<number>();
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    setWidth(element.clientWidth);
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}
