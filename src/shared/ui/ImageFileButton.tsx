import Button, { type ButtonProps } from '@mui/material/Button';
import { useRef } from 'react';
import { IMAGE_ACCEPT } from '@/shared/lib/images';

interface ImageFileButtonProps extends Omit<ButtonProps, 'onClick'> {
  /** The chosen image (undefined when the picker was cancelled); the caller checks and sends it. */
  onFile: (file: File | undefined) => void;
  /** Lets tests set the file directly, as a user's file picker would. */
  inputTestId?: string;
}

/**
 * A button that opens the file picker for an image (the avatar, team avatar and logo uploads). The
 * input is cleared after each choice, so choosing the same file again after an error sends it again.
 */
export function ImageFileButton({ onFile, inputTestId, children, ...button }: ImageFileButtonProps) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <Button {...button} onClick={() => input.current?.click()}>
        {children}
      </Button>
      <input
        ref={input}
        type="file"
        accept={IMAGE_ACCEPT}
        hidden
        aria-hidden
        tabIndex={-1}
        data-testid={inputTestId}
        onChange={(event) => {
          onFile(event.target.files?.[0]);
          event.target.value = '';
        }}
      />
    </>
  );
}
