/** The message under a form field; its id ties it to the field through aria-describedby. */
export function FieldError({ id, message }: { id: string; message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="mt-1 whitespace-pre-wrap break-words text-xs font-medium text-danger">
      {message}
    </p>
  );
}
