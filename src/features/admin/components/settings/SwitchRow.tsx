import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { useId } from 'react';

interface Props {
  label: string;
  description: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
}

/** A labelled switch with a line explaining what it does. */
export function SwitchRow({ label, description, checked, onChange, disabled }: Props) {
  const descriptionId = useId();
  return (
    <Stack>
      <FormControlLabel
        control={
          <Switch
            checked={checked}
            disabled={disabled}
            onChange={(event) => onChange(event.target.checked)}
            slotProps={{ input: { 'aria-describedby': descriptionId } }}
          />
        }
        label={label}
      />
      <Typography id={descriptionId} variant="body2" color="text.secondary" sx={{ pl: 6.5, mt: -0.5 }}>
        {description}
      </Typography>
    </Stack>
  );
}
