import { useEffect, useEffectEvent, useId, useRef, type ReactNode, type RefObject } from 'react';

interface Props {
  title: string;
  onClose: () => void;
  /** The element focused when the dialog opens (the first field). */
  initialFocus?: RefObject<HTMLElement | null>;
  children: ReactNode;
  tone?: 'default' | 'danger';
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), textarea:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A modal dialog: focus moves in and stays in (Tab wraps), Escape or the backdrop closes it,
 * and focus returns to the button that opened it.
 */
export function Dialog({ title, onClose, initialFocus, children, tone = 'default' }: Props) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const close = useEffectEvent(() => onClose());

  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    (initialFocus?.current ?? panel.current)?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        close();
        return;
      }
      if (event.key !== 'Tab' || !panel.current) return;
      const items = [...panel.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
      if (items.length === 0) return;
      const first = items[0];
      const last = items[items.length - 1];
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    return () => {
      document.removeEventListener('keydown', onKey);
      document.body.style.overflow = overflow;
      opener?.focus?.();
    };
    // Opened once per mount; initialFocus is a ref.
  }, [initialFocus]);

  return (
    // The backdrop is presentation only: a click on it is the mouse's shortcut for Escape.
    <div className="sp-dialog-backdrop" role="presentation" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        ref={panel}
        className={`sp-dialog sp-dialog--${tone}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
      >
        <h2 id={titleId} className="sp-dialog__title">
          {title}
        </h2>
        {children}
      </div>
    </div>
  );
}
