import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { TEAM_BIO_MAX, TEAM_NAME_MAX } from '../api';

/** Characters as a reader counts them (an emoji is one), as the server does. */
const length = (text: string) => [...text].length;

/** What is wrong with a team's name and bio (i18n keys), checked as the server does (reference §3.5). */
export function teamProblems(name: string, bio: string) {
  const trimmed = length(name.trim());
  return {
    name: trimmed === 0 ? 'team:form.nameRequired' : trimmed > TEAM_NAME_MAX ? 'team:form.tooLong' : undefined,
    bio: length(bio) > TEAM_BIO_MAX ? 'team:form.tooLong' : undefined,
  };
}

/**
 * The name and bio fields of the create and manage forms, each with its problem or its length. The
 * form decides when a name problem shows (`nameProblem`); the bio's shows at once.
 */
export function TeamFields({
  name,
  bio,
  onName,
  onBio,
  nameProblem,
  autoFocus = false,
}: {
  name: string;
  bio: string;
  onName: (name: string) => void;
  onBio: (bio: string) => void;
  nameProblem: string | undefined;
  /** Focus the name when the fields mount (a dialog opening on them). */
  autoFocus?: boolean;
}) {
  const { t } = useTranslation();
  const bioProblem = teamProblems(name, bio).bio;
  return (
    <>
      <TextField
        autoFocus={autoFocus}
        label={t('team:form.name')}
        value={name}
        onChange={(event) => onName(event.target.value)}
        required
        error={Boolean(nameProblem)}
        helperText={
          nameProblem
            ? t(nameProblem, { max: TEAM_NAME_MAX })
            : t('team:form.length', { length: length(name.trim()), max: TEAM_NAME_MAX })
        }
      />
      <TextField
        label={t('team:form.bio')}
        value={bio}
        onChange={(event) => onBio(event.target.value)}
        multiline
        minRows={2}
        error={Boolean(bioProblem)}
        helperText={
          bioProblem
            ? t(bioProblem, { max: TEAM_BIO_MAX })
            : t('team:form.length', { length: length(bio), max: TEAM_BIO_MAX })
        }
      />
    </>
  );
}
