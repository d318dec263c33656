import Avatar from '@mui/material/Avatar';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

/** A user's or team's avatar (or initial) next to the name, as the tables show them. */
export function NameWithAvatar({
  name,
  avatar,
  secondary,
}: {
  name: string;
  avatar?: string | null;
  secondary?: string;
}) {
  return (
    <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', minWidth: 0 }}>
      <Avatar src={avatar ?? undefined} alt="" sx={{ width: 32, height: 32, fontSize: 15 }}>
        {name.slice(0, 1).toUpperCase()}
      </Avatar>
      <Stack sx={{ minWidth: 0 }}>
        <Typography variant="body2" noWrap sx={{ fontWeight: 600 }}>
          {name}
        </Typography>
        {secondary && (
          <Typography variant="caption" color="text.secondary" noWrap>
            {secondary}
          </Typography>
        )}
      </Stack>
    </Stack>
  );
}
