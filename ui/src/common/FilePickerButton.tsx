import { useRef } from 'react';
import Button, { type ButtonProps } from '@mui/material/Button';

interface Props extends Omit<ButtonProps, 'onClick' | 'component'> {
  /** The file input's `accept`. */
  accept: string;
  multiple?: boolean;
  /** The chosen files, copied out of the input (which is then cleared, so the same file can be chosen again). */
  onFiles: (files: File[]) => void;
  /** The hidden input's data-testid (tests set files on it). */
  inputTestId?: string;
  /** The hidden input's accessible name and description (what the field is, its help text's id). */
  inputLabel?: string;
  inputDescribedBy?: string;
}

/**
 * A button that opens the file chooser. A real <button> clicks a hidden file input, so Enter and Space open
 * the chooser too: a `<Button component="label">` around the input was reached by Tab but did nothing there.
 */
export function FilePickerButton({ accept, multiple, onFiles, inputTestId, inputLabel, inputDescribedBy, children, ...props }: Props) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <Button {...props} onClick={() => input.current?.click()}>
        {children}
      </Button>
      <input
        ref={input}
        hidden
        type="file"
        accept={accept}
        multiple={multiple}
        data-testid={inputTestId}
        aria-label={inputLabel}
        aria-describedby={inputDescribedBy}
        onChange={(e) => {
          const files = Array.from(e.target.files ?? []);
          e.target.value = '';
          if (files.length) onFiles(files);
        }}
      />
    </>
  );
}
