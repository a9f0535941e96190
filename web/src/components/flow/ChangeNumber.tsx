/** "Alterar número" on a code step: back to the phone, starting over with a fresh attempt. */
export function ChangeNumber({ onClick, className = 'flow-change-number' }: { onClick: () => void; className?: string }) {
  return (
    <button type="button" className={className} onClick={onClick}>
      Alterar número
    </button>
  );
}
