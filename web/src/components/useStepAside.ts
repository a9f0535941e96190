import { useEffect, useState, type RefObject } from 'react';

// Snackbars and banners count as a whole: the visitor must read them and reach their buttons.
const CONTROL =
  'a[href], button, input, select, textarea, label, summary, [role="button"], [tabindex]:not([tabindex="-1"]), [role="alert"], [role="status"]';

/** Points of a rectangle to probe: a 5 × 5 grid, a little inside, so no text line slips between. */
function probes(rect: DOMRect): [number, number][] {
  const inset = 2;
  const points: [number, number][] = [];
  for (let i = 0; i < 5; i += 1) {
    for (let j = 0; j < 5; j += 1) {
      points.push([
        rect.left + inset + ((rect.width - 2 * inset) * i) / 4,
        rect.top + inset + ((rect.height - 2 * inset) * j) / 4,
      ]);
    }
  }
  return points;
}

/**
 * Whether a letter of the page's text is drawn at (x, y): the caret position there, and the
 * box of the character on either side of it (a paragraph's box is wider than its lines).
 */
function letterAt(x: number, y: number): boolean {
  const range = typeof document.caretRangeFromPoint === 'function' ? document.caretRangeFromPoint(x, y) : null;
  const node = range?.startContainer;
  if (!range || !node || node.nodeType !== Node.TEXT_NODE) return false;
  const text = node.textContent ?? '';
  return [range.startOffset - 1, range.startOffset].some((at) => {
    if (at < 0 || at >= text.length || /\s/.test(text[at])) return false;
    const letter = document.createRange();
    letter.setStart(node, at);
    letter.setEnd(node, at + 1);
    const box = letter.getBoundingClientRect();
    return x >= box.left && x <= box.right && y >= box.top && y <= box.bottom;
  });
}

/** Whether a control, a message or a letter of body text (not `own`'s) lies under `own`'s box. */
export function coversAControl(own: HTMLElement): boolean {
  if (typeof document.elementsFromPoint !== 'function') return false;
  const rect = own.getBoundingClientRect();
  if (rect.width === 0) return false;
  const points = probes(rect);
  if (points.some(([x, y]) => document.elementsFromPoint(x, y).some((e) => !own.contains(e) && e.closest(CONTROL) !== null))) {
    return true;
  }
  // Hidden for the caret's hit test only; restored before anything is painted (issue 29: the
  // button covered body text at 375 px).
  const visibility = own.style.visibility;
  own.style.visibility = 'hidden';
  try {
    return points.some(([x, y]) => letterAt(x, y));
  } finally {
    own.style.visibility = visibility;
  }
}

function isTextEntry(element: Element | null): boolean {
  return element instanceof HTMLElement && element.matches('input:not([type="checkbox"]):not([type="radio"]), textarea, select');
}

/** Heights (px) the launcher may rise by to clear a control before it tucks away. */
export const LIFTS = [0, 76, 152, 228];

export interface Placement {
  /** How far above its place the launcher sits. */
  lift: number;
  /** Slid out of sight: a form field has focus, or no lift clears the controls. */
  tucked: boolean;
}

/**
 * Where a floating element sits so that it never covers a control: in its place, raised by
 * one of LIFTS, or tucked away (also while a form field has focus, when a phone's keyboard is
 * up). Checked on scroll, resize, focus changes and page changes, once a frame at most.
 */
export function useStepAside(ref: RefObject<HTMLElement | null>): Placement {
  const [placement, setPlacement] = useState<Placement>({ lift: 0, tucked: false });
  useEffect(() => {
    let frame = 0;
    const check = () => {
      frame = 0;
      const own = ref.current;
      if (!own) return;
      let next: Placement = { lift: 0, tucked: true };
      if (!isTextEntry(document.activeElement)) {
        // Measure each place with no transition and no tuck, then put the element back.
        own.dataset.measuring = 'true';
        const before = own.style.getPropertyValue('--lift');
        for (const lift of LIFTS) {
          own.style.setProperty('--lift', `${lift}px`);
          if (!coversAControl(own)) {
            next = { lift, tucked: false };
            break;
          }
        }
        own.style.setProperty('--lift', before);
        delete own.dataset.measuring;
      }
      setPlacement((current) => (current.lift === next.lift && current.tucked === next.tucked ? current : next));
    };
    const schedule = () => {
      if (frame === 0) frame = requestAnimationFrame(check);
    };
    const events = ['scroll', 'resize', 'focusin', 'focusout'] as const;
    for (const name of events) window.addEventListener(name, schedule, { passive: true });
    // Page changes (a new panel, an opened accordion); the element's own changes do not count.
    const observer = new MutationObserver((records) => {
      if (records.some((record) => !ref.current?.contains(record.target))) schedule();
    });
    observer.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['class', 'hidden', 'open'] });
    schedule();
    return () => {
      for (const name of events) window.removeEventListener(name, schedule);
      observer.disconnect();
      if (frame !== 0) cancelAnimationFrame(frame);
    };
  }, [ref]);
  return placement;
}
