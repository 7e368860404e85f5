import { type ReactNode, type RefObject, useEffect } from "react";

/*
 * A stand-in for `react-remove-scroll`, aliased in vite.config.ts. The original injects
 * a <style> element, which a CSP of `style-src 'self'` refuses. This version keeps the
 * part that matters (the page behind a modal does not scroll) by setting
 * `overflow: hidden` on <body> through the CSSOM, which the CSP allows.
 */

let locks = 0;
let previousOverflow = "";

function lock(): () => void {
  if (locks === 0) {
    previousOverflow = document.body.style.overflow;
    document.body.style.overflow = "hidden";
  }
  locks += 1;
  return () => {
    locks -= 1;
    if (locks === 0) document.body.style.overflow = previousOverflow;
  };
}

interface RemoveScrollProps {
  children?: ReactNode;
  enabled?: boolean;
  as?: unknown;
  allowPinchZoom?: boolean;
  shards?: Array<RefObject<unknown> | HTMLElement>;
}

export function RemoveScroll({ children, enabled = true }: RemoveScrollProps) {
  useEffect(() => (enabled ? lock() : undefined), [enabled]);
  return <>{children}</>;
}

RemoveScroll.classNames = { fullWidth: "width-before-scroll-bar", zeroRight: "right-scroll-bar-position" };

export default RemoveScroll;
