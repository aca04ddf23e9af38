import IconButton, { type IconButtonProps } from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';

/**
 * An icon button named by its tooltip: `title` is both, unless `aria-label` names the button more precisely
 * ('Exportar: Boas-vindas'). A button given `disabled` sits in a span so its tooltip still shows while it is off.
 */
export function TipIconButton({ title, disabled, children, ...props }: { title: string } & Omit<IconButtonProps, 'title'>) {
  const button = (
    <IconButton aria-label={title} disabled={disabled} {...props}>
      {children}
    </IconButton>
  );
  return <Tooltip title={title}>{disabled === undefined ? button : <span>{button}</span>}</Tooltip>;
}
