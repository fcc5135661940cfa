import type { ComponentProps } from 'react';

/** A form whose submit runs `onSubmit` in the page (a server action through useAction) instead of loading another. */
export function Form({ onSubmit, ...props }: Omit<ComponentProps<'form'>, 'onSubmit'> & { onSubmit: () => void }) {
  return (
    <form
      {...props}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    />
  );
}
