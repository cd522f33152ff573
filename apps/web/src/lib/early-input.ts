/**
 * Keeps what a person typed, ticked or opened on the server-rendered page before its script started.
 *
 * The page works before it hydrates, and on a slow connection a person starts typing then. Hydration
 * sets each control to the value the server rendered, which would undo that. So from the moment the
 * client starts, the state of every form control and disclosure is recorded (kept current by the
 * person's own edits), and once the page has hydrated it is put back. A control nobody touched is
 * put back to what the server rendered: a no-op (ADR 0072).
 */

type Restore = () => void;

const recorded = new Map<Element, Restore>();

/** How to put `element` back as it is now, or undefined when it holds no state of its own. */
function snapshot(element: Element): Restore | undefined {
  if (element instanceof HTMLInputElement) {
    if (element.type === 'checkbox' || element.type === 'radio') {
      const { checked } = element;
      return () => {
        element.checked = checked;
      };
    }
    // No state of the person's own, or (a file input) one a script may not set.
    if (['hidden', 'submit', 'button', 'reset', 'image', 'file'].includes(element.type)) return undefined;
  }
  if (
    element instanceof HTMLInputElement ||
    element instanceof HTMLSelectElement ||
    element instanceof HTMLTextAreaElement
  ) {
    const { value } = element;
    return () => {
      element.value = value;
    };
  }
  if (element instanceof HTMLDetailsElement) {
    const { open } = element;
    return () => {
      element.open = open;
    };
  }
  return undefined;
}

function record(element: Element): void {
  const restore = snapshot(element);
  if (restore) recorded.set(element, restore);
}

function onEdit(event: Event): void {
  if (event.target instanceof Element) record(event.target);
}

const EVENTS = ['input', 'change', 'toggle'] as const;

/** Records the page's controls as they are, and each edit from now on. Call before hydration. */
export function recordEarlyInput(): void {
  for (const element of document.querySelectorAll('input, select, textarea, details')) record(element);
  // Capture: `toggle` does not bubble, and a handler of the page must not hide an edit.
  for (const type of EVENTS) document.addEventListener(type, onEdit, true);
}

/** Puts the recorded state back and stops recording. Call once the page has hydrated. */
export function restoreEarlyInput(): void {
  for (const type of EVENTS) document.removeEventListener(type, onEdit, true);
  for (const [element, restore] of recorded) if (element.isConnected) restore();
  recorded.clear();
}
