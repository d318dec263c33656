import Autocomplete from '@mui/material/Autocomplete';
import Chip from '@mui/material/Chip';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAdminUpdateConfigsMutation, type AccountPolicy } from '../../api';
import { SettingsSection } from './SettingsSection';
import { SwitchRow } from './SwitchRow';

const DOMAIN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
const SEPARATORS = /[\s,;]+/;

export const parseDomains = (list: string) =>
  list
    .split(SEPARATORS)
    .map((domain) => domain.trim().toLowerCase())
    .filter(Boolean);

const SWITCHES = ['allowRegister', 'activeOnRegister', 'useCaptcha', 'emailConfirmationRequired'] as const;

/** Registration switches and the e-mail domains allowed to register (empty: any). */
export function AccountPolicySection({ policy }: { policy: AccountPolicy }) {
  const { t } = useTranslation();
  const [form, setForm] = useState(() => ({ ...policy, domains: parseDomains(policy.emailDomainList) }));
  const [input, setInput] = useState('');
  const [update, { isLoading }] = useAdminUpdateConfigsMutation();
  const invalid = form.domains.filter((domain) => !DOMAIN.test(domain));
  const pristine =
    SWITCHES.every((key) => form[key] === policy[key]) &&
    form.domains.join(',') === parseDomains(policy.emailDomainList).join(',') &&
    input.trim() === '';

  const addDomains = (text: string) => {
    const added = parseDomains(text);
    if (added.length === 0) return;
    setForm((previous) => ({ ...previous, domains: [...new Set([...previous.domains, ...added])] }));
  };

  function save() {
    const pending = parseDomains(input);
    const domains = [...new Set([...form.domains, ...pending])];
    setInput('');
    if (domains.some((domain) => !DOMAIN.test(domain))) {
      setForm((previous) => ({ ...previous, domains }));
      return;
    }
    const { allowRegister, activeOnRegister, useCaptcha, emailConfirmationRequired } = form;
    void update({
      configEditModel: {
        accountPolicy: {
          allowRegister,
          activeOnRegister,
          useCaptcha,
          emailConfirmationRequired,
          emailDomainList: domains.join(','),
        },
      },
    }).catch(() => undefined);
  }

  return (
    <SettingsSection
      title={t('admin:settings.account.title')}
      description={t('admin:settings.account.description')}
      onSave={save}
      saving={isLoading}
      pristine={pristine}
    >
      {SWITCHES.map((key) => (
        <SwitchRow
          key={key}
          label={t(`admin:settings.account.${key}`)}
          description={t(`admin:settings.account.${key}Hint`)}
          checked={form[key]}
          onChange={(checked) => setForm((previous) => ({ ...previous, [key]: checked }))}
        />
      ))}
      <Autocomplete
        multiple
        freeSolo
        options={[]}
        value={form.domains}
        inputValue={input}
        onInputChange={(_event, value) => {
          // A separator typed (or pasted) turns what came before it into chips.
          if (SEPARATORS.test(value)) {
            const parts = value.split(SEPARATORS);
            addDomains(parts.slice(0, -1).join(','));
            setInput(parts.at(-1) ?? '');
          } else setInput(value);
        }}
        onChange={(_event, value) =>
          setForm((previous) => ({ ...previous, domains: [...new Set(value.flatMap((item) => parseDomains(item)))] }))
        }
        onBlur={() => {
          addDomains(input);
          setInput('');
        }}
        renderValue={(values, getItemProps) =>
          values.map((domain, index) => {
            const { key, ...itemProps } = getItemProps({ index });
            return (
              <Chip
                key={key}
                label={domain}
                size="small"
                color={DOMAIN.test(domain) ? 'default' : 'error'}
                {...itemProps}
              />
            );
          })
        }
        renderInput={(params) => (
          <TextField
            {...params}
            label={t('admin:settings.account.domains')}
            placeholder={form.domains.length === 0 ? 'example.edu' : undefined}
            error={invalid.length > 0}
            helperText={
              invalid.length > 0
                ? t('admin:settings.error.domains', { domains: invalid.join(', ') })
                : t('admin:settings.account.domainsHint')
            }
          />
        )}
      />
    </SettingsSection>
  );
}
