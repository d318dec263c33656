import ArrowBackOutlined from '@mui/icons-material/ArrowBackOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import SaveOutlined from '@mui/icons-material/SaveOutlined';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { translateText } from '@/shared/text/textRef';
import { useConfirm } from '@/shared/ui/ConfirmProvider';
import { useEditDeletePostMutation, useEditSavePostMutation, type EditablePost } from '../api';
import { normaliseTags, POST_TITLE_MAX, postTitleError } from '../lib/postFields';
import { MarkdownField } from './MarkdownField';

/**
 * The admin's post editor (reference §7.4): title, summary, markdown content with a live preview,
 * tags and the pin. `post` is the stored post, or null for a new one. Saving goes to the post;
 * deleting asks first and goes to the list.
 */
export function PostEditor({ post }: { post: EditablePost | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const confirm = useConfirm();
  const [save, { isLoading: saving }] = useEditSavePostMutation();
  const [remove, { isLoading: deleting }] = useEditDeletePostMutation();
  const [title, setTitle] = useState(post?.title ?? '');
  const [summary, setSummary] = useState(post?.summary ?? '');
  const [content, setContent] = useState(post?.content ?? '');
  const [tags, setTags] = useState<string[]>(post?.tags ?? []);
  const [isPinned, setPinned] = useState(post?.isPinned ?? false);
  const [titleTouched, setTitleTouched] = useState(false);

  const titleError = postTitleError(title);
  const showTitleError = titleTouched && titleError;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTitleTouched(true);
    if (titleError) return;
    try {
      const text = { title: title.trim(), summary, content, tags: normaliseTags(tags) };
      // A pin is sent only when the switch was moved here: `post` may be an old copy, and the pin the
      // server has by now (read when saving, see editSavePost) is kept otherwise.
      const pin = !post || isPinned !== post.isPinned ? isPinned : undefined;
      const id = await save({ id: post?.id ?? null, text, isPinned: pin }).unwrap();
      void navigate(`/posts/${id}`);
    } catch {
      // The error notification says why; the fields stay as typed.
    }
  }

  async function deletePost() {
    if (!post) return;
    const confirmed = await confirm({
      title: t('posts:editor.deleteTitle'),
      message: t('posts:editor.deleteMessage', { title: post.title }),
      confirmLabel: t('posts:editor.delete'),
      destructive: true,
    });
    if (!confirmed) return;
    const outcome = await remove({ id: post.id });
    if (!('error' in outcome)) void navigate('/posts', { replace: true });
  }

  const busy = saving || deleting;
  return (
    <Stack
      component="form"
      noValidate
      spacing={3}
      sx={{ py: { xs: 1, md: 3 } }}
      onSubmit={(event) => void submit(event)}
    >
      <Stack spacing={1}>
        <Button
          component={RouterLink}
          to={post ? `/posts/${post.id}` : '/posts'}
          startIcon={<ArrowBackOutlined />}
          sx={{ alignSelf: 'flex-start' }}
        >
          {t(post ? 'posts:editor.backToPost' : 'posts:allPosts')}
        </Button>
        <Typography variant="h4" component="h1" sx={{ fontWeight: 700 }}>
          {t(post ? 'posts:editor.editTitle' : 'posts:editor.newTitle')}
        </Typography>
      </Stack>
      <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 } }}>
        <Stack spacing={2.5}>
          <TextField
            label={t('posts:editor.title')}
            value={title}
            onChange={(event) => setTitle(event.target.value)}
            onBlur={() => setTitleTouched(true)}
            error={Boolean(showTitleError)}
            helperText={showTitleError ? translateText(t, titleError) : `${[...title].length}/${POST_TITLE_MAX}`}
            required
            fullWidth
          />
          <TextField
            label={t('posts:editor.summary')}
            helperText={t('posts:editor.summaryHint')}
            value={summary}
            onChange={(event) => setSummary(event.target.value)}
            multiline
            minRows={2}
            fullWidth
          />
          <Autocomplete
            multiple
            freeSolo
            autoSelect
            options={[]}
            value={tags}
            onChange={(_event, next) => setTags(normaliseTags(next))}
            renderInput={(params) => (
              <TextField {...params} label={t('posts:editor.tags')} helperText={t('posts:editor.tagsHint')} />
            )}
          />
          <FormControlLabel
            control={<Switch checked={isPinned} onChange={(event) => setPinned(event.target.checked)} />}
            label={t('posts:editor.pinned')}
          />
          <MarkdownField
            label={t('posts:editor.content')}
            helperText={t('posts:editor.contentHint')}
            value={content}
            onChange={setContent}
            rows={18}
            data-testid="post-preview"
          />
        </Stack>
      </Paper>
      <Stack direction={{ xs: 'column-reverse', sm: 'row' }} spacing={1.5} sx={{ justifyContent: 'space-between' }}>
        {post ? (
          <Button
            color="error"
            variant="outlined"
            startIcon={<DeleteOutlined />}
            disabled={busy}
            loading={deleting}
            onClick={() => void deletePost()}
          >
            {t('posts:editor.delete')}
          </Button>
        ) : (
          <span />
        )}
        <Stack direction="row" spacing={1.5} sx={{ justifyContent: 'flex-end' }}>
          <Button component={RouterLink} to={post ? `/posts/${post.id}` : '/posts'} disabled={busy}>
            {t('common:dialog.cancel')}
          </Button>
          <Button type="submit" variant="contained" startIcon={<SaveOutlined />} disabled={busy} loading={saving}>
            {t('posts:editor.save')}
          </Button>
        </Stack>
      </Stack>
    </Stack>
  );
}
